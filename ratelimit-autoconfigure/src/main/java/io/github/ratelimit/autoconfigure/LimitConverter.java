package io.github.ratelimit.autoconfigure;

import org.springframework.boot.context.properties.ConfigurationPropertiesBinding;
import org.springframework.core.convert.converter.Converter;

import io.github.ratelimit.policy.Limit;
import io.github.ratelimit.policy.LimitParser;

/**
 * Binds limit strings ({@code "50/1m, 500/1h"}, {@code "10000/month"},
 * {@code "2 concurrent"}), so that a malformed one fails in Boot's binder, which knows
 * the property and where it was set (file and line). Calendar quotas are parsed in UTC
 * here; the policy table applies {@code ratelimit.quotas.zone}.
 */
@ConfigurationPropertiesBinding
final class LimitConverter implements Converter<String, Limit> {

	@Override
	public Limit convert(String source) {
		return LimitParser.parse(source);
	}

}
