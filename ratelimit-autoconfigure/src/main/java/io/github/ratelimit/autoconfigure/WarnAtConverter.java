package io.github.ratelimit.autoconfigure;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationPropertiesBinding;
import org.springframework.core.convert.converter.Converter;

import io.github.ratelimit.policy.WarnAt;

/**
 * Binds soft limits ({@code 80%}), so that a malformed one fails in Boot's binder, which
 * knows the property and where it was set.
 */
@ConfigurationPropertiesBinding
final class WarnAtConverter implements Converter<String, WarnAt> {

	@Override
	public @Nullable WarnAt convert(String source) {
		return source.isBlank() ? null : WarnAt.parse(source);
	}

}
