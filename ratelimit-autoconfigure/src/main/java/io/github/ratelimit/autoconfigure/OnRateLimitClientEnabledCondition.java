package io.github.ratelimit.autoconfigure;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Matches when {@code ratelimit.client.enabled} is {@code true}; the client side is
 * opt-in. Anything but {@code true} or {@code false} stops the start: a typo
 * ({@code ture}) must not leave it off without a word.
 */
class OnRateLimitClientEnabledCondition extends SpringBootCondition {

	static final String PROPERTY = "ratelimit.client.enabled";

	@Override
	public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
		return StrictBooleanProperty.outcome(context, PROPERTY, false);
	}

}
