package io.github.ratelimit.autoconfigure;

import org.springframework.boot.context.properties.ConfigurationPropertiesBinding;
import org.springframework.core.convert.converter.Converter;

import io.github.ratelimit.control.AccessRule;

/**
 * Binds the rules of {@code ratelimit.access.allow} ({@code 203.0.113.0/24},
 * {@code user:partner-bot as partner}), so that a malformed one fails in Boot's binder,
 * which knows the property and where it was set. Every rule bound to an
 * {@link AccessRule} is an allow rule: a deny rule is a subject alone
 * ({@link SubjectConverter}). Whether its tier is configured is the mapper's check.
 */
@ConfigurationPropertiesBinding
final class AllowRuleConverter implements Converter<String, AccessRule> {

	/** A valid value, for messages. */
	static final String EXAMPLE = "203.0.113.0/24 (or user:partner-bot as premium)";

	@Override
	public AccessRule convert(String source) {
		return AccessRule.parse(AccessRule.Access.ALLOW, source);
	}

}
