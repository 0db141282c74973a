package io.github.ratelimit.actuate;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.github.bucket4j.TimeMeter;
import io.lettuce.core.RedisClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

import io.github.ratelimit.core.FailureMode;
import io.github.ratelimit.core.FailureModeLog;
import io.github.ratelimit.storage.StoreUnavailableException;
import io.github.ratelimit.storage.memory.InMemoryRateLimitStore;
import io.github.ratelimit.storage.redis.connection.CircuitBreaker;
import io.github.ratelimit.storage.redis.connection.RedisConnector;
import io.github.ratelimit.storage.redis.script.RedisScriptRateLimitStore;
import io.github.ratelimit.test.redis.RedisServerProcess;
import io.github.ratelimit.test.redis.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The store's health: up while Redis decides, degraded (never down) while requests get
 * the failure mode.
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
	void aConnectedStoreIsDegradedWhileTheFailureModeDecidedRecently() {
		RedisScriptRateLimitStore store = store(RedisTestServer.url(), new CircuitBreaker());
		await().atMost(Duration.ofSeconds(10)).until(store::isConnected);
		MutableClock clock = new MutableClock();
		FailureModeLog failures = new FailureModeLog(FailureMode.LOCAL, clock);
		RateLimitHealthIndicator indicator = new RateLimitHealthIndicator(store, FailureMode.LOCAL, failures);
		assertThat(indicator.health().getStatus()).isEqualTo(Status.UP);

		// a silence too short to open the breaker still got requests the failure mode:
		// not healthy
		failures.record(StoreUnavailableException.Kind.TIMEOUT, "Redis answered nothing for 1000 ms");
		Health degraded = indicator.health();
		assertThat(degraded.getStatus().getCode()).isEqualTo(RateLimitHealthIndicator.DEGRADED);
		assertThat(degraded.getStatus().getDescription()).contains("per instance");
		assertThat(degraded.getDetails()).containsEntry("circuit", "closed")
			.containsEntry("failureModeDecisions", 1L)
			.containsEntry("lastFailure", Map.of("kind", "timeout", "message", "Redis answered nothing for 1000 ms",
					"at", clock.instant().toString()));

		clock.advance(FailureModeLog.RECENT);
		Health recovered = indicator.health();
		assertThat(recovered.getStatus()).isEqualTo(Status.UP);
		assertThat(recovered.getDetails()).doesNotContainKey("lastFailure").containsEntry("failureModeDecisions", 1L);
	}

	@Test
	void theMemoryStoreIsUp() {
		Health health = new RateLimitHealthIndicator(new InMemoryRateLimitStore(100, TimeMeter.SYSTEM_NANOTIME),
				FailureMode.OPEN)
			.health();
		assertThat(health.getStatus()).isEqualTo(Status.UP);
		assertThat(health.getDetails()).containsEntry("store", "InMemoryRateLimitStore");
	}

	/** A clock the test moves. */
	static final class MutableClock extends Clock {

		private Instant now = Instant.parse("2026-01-01T00:00:00Z");

		void advance(Duration duration) {
			this.now = this.now.plus(duration);
		}

		@Override
		public ZoneId getZone() {
			return ZoneOffset.UTC;
		}

		@Override
		public Clock withZone(ZoneId zone) {
			return this;
		}

		@Override
		public Instant instant() {
			return this.now;
		}

	}

}
