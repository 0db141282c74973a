package io.github.ratelimit.autoconfigure;

import java.util.Locale;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.context.annotation.ConditionContext;

import io.github.ratelimit.policy.InvalidRateLimitConfigurationException;

/**
 * A switch property read strictly by a condition: anything but {@code true} or
 * {@code false} stops the start, so a typo ({@code ture}) cannot leave a switch in its
 * default without a word.
 */
final class StrictBooleanProperty {

	private StrictBooleanProperty() {
	}

	static ConditionOutcome outcome(ConditionContext context, String property, boolean whenUnset) {
		String value = context.getEnvironment().getProperty(property);
		if (value == null) {
			return whenUnset ? ConditionOutcome.match(property + " is not set")
					: ConditionOutcome.noMatch(property + " is not set");
		}
		switch (value.trim().toLowerCase(Locale.ROOT)) {
			case "true":
				return ConditionOutcome.match(property + " is true");
			case "false":
				return ConditionOutcome.noMatch(property + " is false");
			default:
				throw new InvalidRateLimitConfigurationException(property, value, "must be true or false", "true");
		}
	}

}
