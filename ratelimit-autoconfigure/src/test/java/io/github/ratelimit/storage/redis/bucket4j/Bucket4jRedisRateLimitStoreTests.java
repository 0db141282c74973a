package io.github.ratelimit.storage.redis.bucket4j;

import java.time.Duration;

import io.github.bucket4j.TimeMeter;
import org.jspecify.annotations.Nullable;

import io.github.ratelimit.storage.redis.RedisRateLimitStore;
import io.github.ratelimit.storage.redis.RedisRateLimitStoreContractTests;
import io.github.ratelimit.storage.redis.connection.CircuitBreaker;
import io.github.ratelimit.storage.redis.connection.RedisConnector;
import io.github.ratelimit.test.ManualTimeMeter;

/**
 * The {@code bucket4j} strategy: Bucket4j's Lettuce module (built against Lettuce 6) on
 * the Lettuce that Spring Boot manages.
 */
class Bucket4jRedisRateLimitStoreTests extends RedisRateLimitStoreContractTests {

	@Override
	protected RedisRateLimitStore<?> newStore(RedisConnector connector, Duration timeout, CircuitBreaker breaker,
			@Nullable ManualTimeMeter clock) {
		return new Bucket4jRedisRateLimitStore(connector, timeout, breaker,
				(clock != null) ? clock : TimeMeter.SYSTEM_MILLISECONDS, 1000);
	}

}
