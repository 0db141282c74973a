package io.github.ratelimit.storage.redis;

import java.time.Duration;

import io.github.bucket4j.TimeMeter;
import org.jspecify.annotations.Nullable;

import io.github.ratelimit.test.ManualTimeMeter;

/**
 * The {@code bucket4j} strategy: Bucket4j's Lettuce module (built against Lettuce 6) on
 * the Lettuce that Spring Boot manages.
 */
class Bucket4jRedisRateLimitStoreTests extends RedisRateLimitStoreContractTests {

	@Override
	RedisRateLimitStore<?> newStore(RedisConnector connector, Duration timeout, CircuitBreaker breaker,
			@Nullable ManualTimeMeter clock) {
		return new Bucket4jRedisRateLimitStore(connector, timeout, breaker,
				(clock != null) ? clock : TimeMeter.SYSTEM_MILLISECONDS, 1000);
	}

}
