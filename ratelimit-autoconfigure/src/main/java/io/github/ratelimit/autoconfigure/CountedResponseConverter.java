package io.github.ratelimit.autoconfigure;

import org.springframework.boot.context.properties.ConfigurationPropertiesBinding;
import org.springframework.core.convert.converter.Converter;

import io.github.ratelimit.policy.CountedResponse;

/**
 * Binds the values of a count list ({@code failures}, {@code 401}), so that an unknown
 * one fails in Boot's binder, which knows the property and where it was set. Whether the
 * values go together (a keyword stands alone) is the mapper's check.
 */
@ConfigurationPropertiesBinding
final class CountedResponseConverter implements Converter<String, CountedResponse> {

	@Override
	public CountedResponse convert(String source) {
		return CountedResponse.parse(source);
	}

}
