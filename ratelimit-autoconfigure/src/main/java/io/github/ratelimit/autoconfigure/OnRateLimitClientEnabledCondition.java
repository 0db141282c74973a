package io.github.ratelimit.autoconfigure;

import java.util.Locale;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

import io.github.ratelimit.policy.InvalidRateLimitConfigurationException;

/**
 * Matches when {@code ratelimit.client.enabled} is {@code true}; the client side is
 * opt-in. Anything but {@code true} or {@code false} stops the start: a typo
 * ({@code ture}) must not leave it off without a word.
 */
class OnRateLimitClientEnabledCondition extends SpringBootCondition {

	static final String PROPERTY = "ratelimit.client.enabled";

	@Override
	public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
		String value = context.getEnvironment().getProperty(PROPERTY);
		if (value == null) {
			return ConditionOutcome.noMatch(PROPERTY + " is not set");
		}
		switch (value.trim().toLowerCase(Locale.ROOT)) {
			case "true":
				return ConditionOutcome.match(PROPERTY + " is true");
			case "false":
				return ConditionOutcome.noMatch(PROPERTY + " is false");
			default:
				throw new InvalidRateLimitConfigurationException(PROPERTY, value, "must be true or false", "true");
		}
	}

}
