package io.github.ratelimit.autoconfigure;

import org.springframework.boot.context.properties.ConfigurationPropertiesBinding;
import org.springframework.core.convert.converter.Converter;

import io.github.ratelimit.identity.CidrRange;

/**
 * Binds CIDR ranges ({@code 10.0.0.0/8}), so that a malformed one fails in Boot's binder,
 * which knows the property and where it was set.
 */
@ConfigurationPropertiesBinding
final class CidrRangeConverter implements Converter<String, CidrRange> {

	/** A valid value, for messages. */
	static final String EXAMPLE = "10.0.0.0/8";

	@Override
	public CidrRange convert(String source) {
		return CidrRange.parse(source);
	}

}
