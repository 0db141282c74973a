package io.github.ratelimit.storage.redis.bucket4j;

import java.time.Duration;

import io.github.ratelimit.storage.redis.RedisRateLimitStore;
import io.github.ratelimit.storage.redis.RedisRateLimitStoreOutageTests;
import io.github.ratelimit.storage.redis.connection.CircuitBreaker;
import io.github.ratelimit.storage.redis.connection.RedisConnector;

/**
 * The {@code bucket4j} strategy when Redis goes away, pauses and comes back.
 */
class Bucket4jRedisRateLimitStoreOutageTests extends RedisRateLimitStoreOutageTests {

	@Override
	protected RedisRateLimitStore<?> newStore(RedisConnector connector, Duration timeout, CircuitBreaker breaker) {
		return new Bucket4jRedisRateLimitStore(connector, timeout, breaker);
	}

}
