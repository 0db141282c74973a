package io.github.ratelimit.storage.redis;

import java.time.Duration;
import java.util.List;

import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.Test;

import io.github.ratelimit.storage.LimitCheck;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code script} strategy when Redis goes away, pauses, comes back or forgets its scripts.
 */
class RedisScriptRateLimitStoreOutageTests extends RedisRateLimitStoreOutageTests {

	@Override
	RedisRateLimitStore<?> newStore(RedisConnector connector, Duration timeout, CircuitBreaker breaker) {
		return new RedisScriptRateLimitStore(connector, timeout, breaker);
	}

	@Test
	void loadsTheScriptAgainWhenRedisForgotIt() {
		connect(RedisRateLimitStore.DEFAULT_TIMEOUT, new CircuitBreaker());
		LimitCheck check = check("10/1h", "alice");
		assertThat(this.store.decide(List.of(check)).admitted()).isTrue();
		try (StatefulRedisConnection<String, String> admin = this.client.connect()) {
			// as after a restart or a failover: our own server, so flushing its script cache disturbs no one
			admin.sync().scriptFlush();
		}
		assertThat(this.store.decide(List.of(check)).results().get(0).bandwidths().get(0).remaining()).isEqualTo(8);
		assertThat(this.store.decide(List.of(check)).results().get(0).bandwidths().get(0).remaining()).isEqualTo(7);
	}

}
