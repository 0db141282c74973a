package io.github.ratelimit.autoconfigure;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationPropertiesBinding;
import org.springframework.core.convert.converter.Converter;

import io.github.ratelimit.load.Priority;

/**
 * Binds the priority of a tier or a group ({@code high}, {@code 60}), so that a malformed
 * one fails in Boot's binder, which knows the property and where it was set.
 */
@ConfigurationPropertiesBinding
final class PriorityConverter implements Converter<String, Priority> {

	/** A valid priority, shown when one is not. */
	static final String EXAMPLE = "low, normal, high, critical or a number from 0 to 100 (priority: high)";

	@Override
	public @Nullable Priority convert(String source) {
		return source.isBlank() ? null : Priority.parse(source);
	}

}
