package io.github.ratelimit.autoconfigure;

import org.springframework.boot.context.properties.ConfigurationPropertiesBinding;
import org.springframework.core.convert.converter.Converter;

import io.github.ratelimit.policy.Limit;
import io.github.ratelimit.policy.LimitParser;

/**
 * Binds limit strings ({@code "50/1m, 500/1h"}, {@code "100/1m fixed"},
 * {@code "100/1m sliding"}, {@code "10/1s leaky"}, {@code "10000/month"},
 * {@code "2 concurrent"}), so that a malformed one fails in Boot's binder, which knows
 * the property and where it was set (file and line). Calendar quotas are parsed in UTC
 * here; the policy table applies {@code ratelimit.quotas.zone}.
 */
@ConfigurationPropertiesBinding
final class LimitConverter implements Converter<String, Limit> {

	/** Every kind of limit item, as a failed binding shows them beside a valid value. */
	static final String KINDS = "The kinds: 100/1m (token bucket), 100/1m burst 150, 100/1m fixed (fixed window), "
			+ "100/1m sliding (sliding window), 10/1s leaky (leaky bucket, one request every 100ms), "
			+ "10000/month (also /day, /week), 2 concurrent, or 0 to block";

	@Override
	public Limit convert(String source) {
		return LimitParser.parse(source);
	}

}
