package io.github.ratelimit.autoconfigure;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

import io.github.ratelimit.actuate.RateLimitHealthIndicator;
import io.github.ratelimit.core.RateLimiter;
import io.github.ratelimit.storage.RateLimitStore;

/**
 * The rate-limit store's health indicator (component {@code rateLimit}), when Boot's
 * health support is present; {@code management.health.ratelimit.enabled=false} turns it
 * off.
 */
@AutoConfiguration(after = RateLimitAutoConfiguration.class)
@ConditionalOnClass(HealthIndicator.class)
@ConditionalOnBean(RateLimitStore.class)
@ConditionalOnEnabledHealthIndicator("ratelimit")
public final class RateLimitHealthAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(name = "rateLimitHealthIndicator")
	RateLimitHealthIndicator rateLimitHealthIndicator(RateLimitStore rateLimitStore, RateLimitProperties properties,
			ObjectProvider<RateLimiter> rateLimiter) {
		RateLimiter limiter = rateLimiter.getIfAvailable();
		return new RateLimitHealthIndicator(rateLimitStore, properties.getStorage().getFailureMode(),
				(limiter != null) ? limiter.storeFailures().failureModeLog() : null);
	}

}
