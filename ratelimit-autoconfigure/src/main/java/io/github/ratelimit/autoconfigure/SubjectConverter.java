package io.github.ratelimit.autoconfigure;

import org.springframework.boot.context.properties.ConfigurationPropertiesBinding;
import org.springframework.core.convert.converter.Converter;

import io.github.ratelimit.control.AccessRule;
import io.github.ratelimit.control.Subject;

/**
 * Binds the subjects of {@code ratelimit.access.deny} ({@code 169.254.0.0/16},
 * {@code user:mallory}), so that a malformed one fails in Boot's binder, which knows the
 * property and where it was set. Read as a deny rule: {@code as <tier>} is refused.
 */
@ConfigurationPropertiesBinding
final class SubjectConverter implements Converter<String, Subject> {

	/** A valid value, for messages. */
	static final String EXAMPLE = "169.254.0.0/16";

	@Override
	public Subject convert(String source) {
		return AccessRule.parse(AccessRule.Access.DENY, source).subject();
	}

}
