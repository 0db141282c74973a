package io.github.ratelimit.autoconfigure;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationPropertiesBinding;
import org.springframework.core.convert.converter.Converter;

/**
 * Binds the SHA-256 of an API key, so that a value that is not 64 hex digits (a raw key
 * in the wrong place, most likely) fails in Boot's binder, which knows the property and
 * where it was set; the analyzer never shows the value.
 */
@ConfigurationPropertiesBinding
final class KeySha256Converter implements Converter<String, KeySha256> {

	@Override
	public @Nullable KeySha256 convert(String source) {
		return source.isBlank() ? null : new KeySha256(source.strip());
	}

}
