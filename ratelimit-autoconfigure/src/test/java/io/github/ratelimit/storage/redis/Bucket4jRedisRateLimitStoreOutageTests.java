package io.github.ratelimit.storage.redis;

import java.time.Duration;

/**
 * The {@code bucket4j} strategy when Redis goes away, pauses and comes back.
 */
class Bucket4jRedisRateLimitStoreOutageTests extends RedisRateLimitStoreOutageTests {

	@Override
	RedisRateLimitStore<?> newStore(RedisConnector connector, Duration timeout, CircuitBreaker breaker) {
		return new Bucket4jRedisRateLimitStore(connector, timeout, breaker);
	}

}
