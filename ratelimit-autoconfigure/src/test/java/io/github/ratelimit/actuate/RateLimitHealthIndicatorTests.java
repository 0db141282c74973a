package io.github.ratelimit.actuate;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.github.bucket4j.TimeMeter;
import io.lettuce.core.RedisClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

import io.github.ratelimit.core.FailureMode;
import io.github.ratelimit.storage.memory.InMemoryRateLimitStore;
import io.github.ratelimit.storage.redis.CircuitBreaker;
import io.github.ratelimit.storage.redis.RedisConnector;
import io.github.ratelimit.storage.redis.RedisScriptRateLimitStore;
import io.github.ratelimit.test.redis.RedisServerProcess;
import io.github.ratelimit.test.redis.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The store's health: up while Redis decides, degraded (never down) while requests get the failure mode.
 */
class RateLimitHealthIndicatorTests {

	private final List<AutoCloseable> resources = new ArrayList<>();

	@AfterEach
	void close() throws Exception {
		for (int i = this.resources.size() - 1; i >= 0; i--) {
			this.resources.get(i).close();
		}
	}

	private RedisScriptRateLimitStore store(String url, CircuitBreaker breaker) {
		RedisClient client = RedisClient.create(url);
		this.resources.add(client::shutdown);
		RedisScriptRateLimitStore store = new RedisScriptRateLimitStore(RedisConnector.of(client),
				Duration.ofMillis(50), breaker);
		this.resources.add(store);
		store.start();
		return store;
	}

	@Test
	void aConnectedRedisStoreIsUpAndDegradedOnceItsBreakerOpens() {
		CircuitBreaker breaker = new CircuitBreaker(2, Duration.ofMinutes(1));
		RedisScriptRateLimitStore store = store(RedisTestServer.url(), breaker);
		await().atMost(Duration.ofSeconds(10)).until(store::isConnected);
		RateLimitHealthIndicator indicator = new RateLimitHealthIndicator(store, FailureMode.OPEN);
		Health up = indicator.health();
		assertThat(up.getStatus()).isEqualTo(Status.UP);
		assertThat(up.getDetails()).containsEntry("connected", true).containsEntry("circuit", "closed");
		breaker.recordFailure();
		breaker.recordFailure();
		Health degraded = indicator.health();
		assertThat(degraded.getStatus().getCode()).isEqualTo(RateLimitHealthIndicator.DEGRADED);
		assertThat(degraded.getStatus().getDescription()).contains("admitted without limits");
		assertThat(degraded.getDetails()).containsEntry("circuit", "open").containsEntry("failureMode", "open");
	}

	@Test
	void aRedisStoreThatCannotConnectIsDegradedNotDown() {
		String nowhere = "redis://127.0.0.1:" + RedisServerProcess.freePort();
		RateLimitHealthIndicator indicator = new RateLimitHealthIndicator(store(nowhere, new CircuitBreaker()),
				FailureMode.CLOSED);
		Health health = indicator.health();
		assertThat(health.getStatus().getCode()).isEqualTo(RateLimitHealthIndicator.DEGRADED);
		assertThat(health.getStatus()).isNotEqualTo(Status.DOWN);
		assertThat(health.getStatus().getDescription()).contains("503");
		assertThat(health.getDetails()).containsEntry("connected", false);
	}

	@Test
	void theMemoryStoreIsUp() {
		Health health = new RateLimitHealthIndicator(new InMemoryRateLimitStore(100, TimeMeter.SYSTEM_NANOTIME),
				FailureMode.OPEN).health();
		assertThat(health.getStatus()).isEqualTo(Status.UP);
		assertThat(health.getDetails()).containsEntry("store", "InMemoryRateLimitStore");
	}

}
