package io.github.ratelimit.autoconfigure;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Matches unless {@code ratelimit.enabled} is {@code false}. Anything but {@code true} or
 * {@code false} stops the start: a typo ({@code ture}) must not switch the limiter off
 * without a word, as a plain boolean property condition would.
 */
class OnRateLimitEnabledCondition extends SpringBootCondition {

	static final String PROPERTY = "ratelimit.enabled";

	@Override
	public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
		return StrictBooleanProperty.outcome(context, PROPERTY, true);
	}

}
