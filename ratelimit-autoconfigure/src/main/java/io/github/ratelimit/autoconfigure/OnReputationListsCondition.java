package io.github.ratelimit.autoconfigure;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.ConfigurationPropertyState;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Matches when a reputation list is configured ({@code ratelimit.reputation.lists.*}).
 */
class OnReputationListsCondition extends SpringBootCondition {

	private static final ConfigurationPropertyName LISTS = ConfigurationPropertyName.of("ratelimit.reputation.lists");

	@Override
	public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(context.getEnvironment())) {
			if (source.containsDescendantOf(LISTS) == ConfigurationPropertyState.PRESENT) {
				return ConditionOutcome.match("ratelimit.reputation.lists is set");
			}
		}
		return ConditionOutcome.noMatch("no ratelimit.reputation.lists");
	}

}
