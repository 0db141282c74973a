package io.github.ratelimit.autoconfigure;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.annotation.Bean;

/**
 * Says once, at INFO, that rate limiting is switched off
 * ({@code ratelimit.enabled=false}), so that an unlimited application is never a surprise
 * in its logs.
 */
@AutoConfiguration
@ConditionalOnBooleanProperty(name = OnRateLimitEnabledCondition.PROPERTY, havingValue = false)
public final class RateLimitDisabledAutoConfiguration {

	private static final Logger logger = LoggerFactory.getLogger(RateLimitAutoConfiguration.class);

	@Bean
	SmartInitializingSingleton rateLimitDisabledNotice() {
		return () -> logger.info("Rate limiting is disabled (ratelimit.enabled=false): no request is limited");
	}

}
