package io.github.ratelimit.autoconfigure;

import java.util.Locale;

import org.springframework.boot.context.properties.ConfigurationPropertiesBinding;
import org.springframework.core.convert.converter.Converter;

import io.github.ratelimit.policy.LimitParser;

/**
 * Binds a limit that may be switched off: {@code none} (or nothing) for none, else a
 * limit string, parsed once; a malformed one fails in Boot's binder, which knows the
 * property and where it was set.
 */
@ConfigurationPropertiesBinding
final class OptionalLimitConverter implements Converter<String, OptionalLimit> {

	@Override
	public OptionalLimit convert(String source) {
		String text = source.strip();
		if (text.isEmpty() || "none".equals(text.toLowerCase(Locale.ROOT))) {
			return OptionalLimit.NONE;
		}
		return new OptionalLimit(LimitParser.parse(text));
	}

}
