package io.github.ratelimit.behaviour;

import java.util.List;

import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;

import io.github.ratelimit.storage.LimitCheck;
import io.github.ratelimit.storage.RateLimitStore;
import io.github.ratelimit.storage.StoreDecision;
import io.github.ratelimit.storage.StoreUnavailableException;

/**
 * A store that is down, for the failure-mode tests in memory (in Redis they point at a
 * port nothing listens on). The auto-configured store backs off for it.
 */
@TestConfiguration(proxyBeanMethods = false)
class DownStore {

	@Bean
	RateLimitStore downRateLimitStore() {
		return new RateLimitStore() {

			@Override
			public StoreDecision decide(List<LimitCheck> checks) {
				throw new StoreUnavailableException("The store is down (test)");
			}

		};
	}

}
