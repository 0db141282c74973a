package io.github.ratelimit.autoconfigure;

import java.time.Clock;

import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

import io.github.ratelimit.actuate.RateLimitsEndpoint;
import io.github.ratelimit.control.RuntimeControl;
import io.github.ratelimit.core.RateLimiter;
import io.github.ratelimit.identity.ClientIpResolver;
import io.github.ratelimit.storage.RateLimitStore;
import io.github.ratelimit.storage.StoreKeys;

/**
 * The {@code ratelimits} Actuator endpoint, when Actuator is present and the application
 * exposes the endpoint (it is not exposed by default, as Actuator's own endpoints beside
 * health).
 */
@AutoConfiguration(after = RateLimitAutoConfiguration.class)
@ConditionalOnClass(Endpoint.class)
@ConditionalOnBean({ RuntimeControl.class, RateLimitStore.class, RateLimiter.class, ClientIpResolver.class,
		StoreKeys.class })
@ConditionalOnAvailableEndpoint(RateLimitsEndpoint.class)
public final class RateLimitEndpointAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	RateLimitsEndpoint rateLimitsEndpoint(RuntimeControl runtimeControl, RateLimitStore rateLimitStore,
			RateLimiter rateLimiter, ClientIpResolver clientIpResolver, StoreKeys storeKeys) {
		// ip ids are read as the groups this resolver counts clients in, so that an
		// override applies
		return new RateLimitsEndpoint(runtimeControl, rateLimitStore, storeKeys, rateLimiter.topRefused(),
				Clock.systemUTC(), clientIpResolver, rateLimiter::forgetLocally);
	}

}
