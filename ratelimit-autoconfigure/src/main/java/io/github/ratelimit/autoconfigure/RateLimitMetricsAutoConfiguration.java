package io.github.ratelimit.autoconfigure;

import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

import io.github.ratelimit.control.RuntimeControl;
import io.github.ratelimit.core.RateLimiter;
import io.github.ratelimit.metrics.RateLimitMetrics;
import io.github.ratelimit.storage.RateLimitStore;

/**
 * The limiter's Micrometer meters, registered with the application's
 * {@link MeterRegistry} (Boot's, when Actuator or Micrometer is present). The meters are
 * a decision listener: both web filters report to it.
 */
@AutoConfiguration(after = RateLimitAutoConfiguration.class, afterName = {
		"org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
		"org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
		"org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration" })
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBean({ MeterRegistry.class, RateLimiter.class, RateLimitStore.class })
public final class RateLimitMetricsAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	RateLimitMetrics rateLimitMetrics(RateLimiter rateLimiter, RateLimitStore rateLimitStore,
			ObjectProvider<RuntimeControl> runtimeControl) {
		return new RateLimitMetrics(rateLimiter, rateLimitStore, runtimeControl.getIfAvailable());
	}

}
