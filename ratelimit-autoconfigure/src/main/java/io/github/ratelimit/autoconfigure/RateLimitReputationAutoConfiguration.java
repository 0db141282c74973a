package io.github.ratelimit.autoconfigure;

import java.time.Clock;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;

import io.github.ratelimit.policy.PolicyTable;
import io.github.ratelimit.reputation.ReputationLists;
import io.github.ratelimit.reputation.ReputationRefresher;

/**
 * Reputation lists at the gate ({@code ratelimit.reputation.lists}): read when the
 * context starts, before the web server takes requests, and refreshed in the background
 * until it stops.
 */
@AutoConfiguration
@Conditional({ OnRateLimitEnabledCondition.class, OnReputationListsCondition.class })
@EnableConfigurationProperties(RateLimitProperties.class)
public final class RateLimitReputationAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	ReputationLists rateLimitReputationLists(RateLimitProperties properties, PolicyTable policyTable) {
		return ReputationMapper.lists(properties.getReputation(), policyTable, Clock.systemUTC());
	}

	@Bean(destroyMethod = "")
	@ConditionalOnMissingBean
	ReputationRefresher rateLimitReputationRefresher(RateLimitProperties properties, ReputationLists lists) {
		return new ReputationRefresher(lists,
				ReputationRefresher.tickFor(ReputationMapper.shortestInterval(properties.getReputation())));
	}

	@Bean
	BackgroundWork rateLimitReputationRefresh(ReputationRefresher refresher) {
		return new BackgroundWork(refresher::start, refresher::close);
	}

}
