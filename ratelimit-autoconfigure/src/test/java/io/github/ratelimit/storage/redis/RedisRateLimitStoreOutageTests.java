package io.github.ratelimit.storage.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.LimitParser;
import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.storage.LimitCheck;
import io.github.ratelimit.storage.StoreDecision;
import io.github.ratelimit.storage.StoreKeys;
import io.github.ratelimit.storage.StoreUnavailableException;
import io.github.ratelimit.storage.redis.connection.CircuitBreaker;
import io.github.ratelimit.storage.redis.connection.CircuitBreaker.State;
import io.github.ratelimit.storage.redis.connection.RedisConnector;
import io.github.ratelimit.test.redis.FakeRedisServer;
import io.github.ratelimit.test.redis.RedisServerProcess;
import io.github.ratelimit.test.redis.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Each Redis strategy when Redis goes away, pauses and comes back: on a
 * {@code redis-server} of their own, so that nothing else is disturbed.
 */
public abstract class RedisRateLimitStoreOutageTests {

	protected static RedisServerProcess server;

	protected RedisClient client;

	protected RedisRateLimitStore<?> store;

	@BeforeAll
	static void startServer() {
		assumeThat(RedisServerProcess.isAvailable()).as("redis-server on the PATH").isTrue();
		server = RedisServerProcess.start();
	}

	@AfterAll
	static void stopServer() {
		if (server != null) {
			server.close();
		}
	}

	@AfterEach
	void close() {
		if (this.store != null) {
			this.store.close();
		}
		if (this.client != null) {
			this.client.shutdown();
		}
		server.restart();
	}

	@Test
	void circuitOpensAfterFailuresAndClosesWhenRedisReturns() {
		CircuitBreaker breaker = new CircuitBreaker(5, Duration.ofSeconds(1));
		connect(Duration.ofMillis(500), breaker);
		List<LimitCheck> checks = List.of(check("1000/1h", "alice"));
		assertThat(this.store.decide(checks).admitted()).isTrue();

		server.stop();
		assertTimeoutPreemptively(Duration.ofSeconds(5), () -> {
			while (breaker.state() != State.OPEN) {
				assertThatExceptionOfType(StoreUnavailableException.class).isThrownBy(() -> this.store.decide(checks));
			}
		});
		assertThatExceptionOfType(StoreUnavailableException.class).isThrownBy(() -> this.store.decide(checks))
			.withMessageContaining("circuit breaker is open");

		server.restart();
		long returned = System.nanoTime();
		// the contract: enforcement resumes within 5 s of Redis returning
		await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20)).until(() -> admits(checks));
		System.out.printf("Enforcement resumed %d ms after Redis returned%n",
				(System.nanoTime() - returned) / 1_000_000);
		assertThat(breaker.state()).isEqualTo(State.CLOSED);
		assertThat(this.store.isConnected()).isTrue();
	}

	@Test
	void timesOutWhenRedisIsSlowAndTakesNothing() {
		connect(Duration.ofMillis(100), new CircuitBreaker(1000, Duration.ofSeconds(1)));
		LimitCheck check = check("10/1h", "alice");
		assertThat(this.store.decide(List.of(check)).results().get(0).bandwidths().get(0).remaining()).isEqualTo(9);
		try (StatefulRedisConnection<String, String> admin = this.client.connect()) {
			admin.sync().clientPause(1500);
			assertTimeoutPreemptively(Duration.ofSeconds(5), () -> {
				assertThatExceptionOfType(StoreUnavailableException.class)
					.isThrownBy(() -> this.store.decide(List.of(check)));
				assertThat(this.store.decideAsync(List.of(check))).failsWithin(Duration.ofSeconds(1))
					.withThrowableOfType(ExecutionException.class)
					.havingCause()
					.isExactlyInstanceOf(StoreUnavailableException.class);
			});
		}
		await().atMost(Duration.ofSeconds(5))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> admits(List.of(check("10/1h", "probe"))));
		assertThat(this.store.decide(List.of(check)).results().get(0).bandwidths().get(0).remaining())
			.as("the timed-out decisions took no token")
			.isEqualTo(8);
	}

	@Test
	void silentRedisOpensTheBreakerWithTheDefaults() {
		CircuitBreaker breaker = new CircuitBreaker();
		connect(RedisRateLimitStore.DEFAULT_TIMEOUT, breaker);
		List<LimitCheck> checks = List.of(check("10/1h", "alice"));
		assertThat(this.store.decide(checks).admitted()).isTrue();
		try (StatefulRedisConnection<String, String> admin = this.client.connect()) {
			// connected, but answering nothing: unhealthy, unlike a busy application
			admin.sync().clientPause(4000);
			assertTimeoutPreemptively(Duration.ofSeconds(4), () -> {
				List<CompletableFuture<StoreDecision>> decisions = new ArrayList<>();
				for (int i = 0; i < CircuitBreaker.DEFAULT_FAILURE_THRESHOLD; i++) {
					decisions.add(this.store.decideAsync(checks));
				}
				// the documented bound: about the timeout (1 s), plus a loaded machine's
				// margin
				assertThat(decisions).allSatisfy((decision) -> assertThat(decision).failsWithin(Duration.ofSeconds(3))
					.withThrowableOfType(ExecutionException.class)
					.havingCause()
					.withMessageContaining("answered nothing for 1000 ms"));
			});
			assertThat(breaker.state()).isEqualTo(State.OPEN);
		}
	}

	@Test
	void eachDecisionOfAPausedRedisFailsAfterTheTimeoutHoweverManyWentUnanswered() {
		// a breaker that never opens: every decision meets the paused Redis
		connect(Duration.ofMillis(200), new CircuitBreaker(1000, Duration.ofSeconds(1)));
		List<LimitCheck> checks = List.of(check("10/1h", "alice"));
		assertThat(this.store.decide(checks).admitted()).isTrue();
		try (StatefulRedisConnection<String, String> admin = this.client.connect()) {
			admin.sync().clientPause(4000);
			assertTimeoutPreemptively(Duration.ofSeconds(4), () -> {
				// one after the other: Redis still holds them all, unanswered
				for (int i = 0; i < 10; i++) {
					assertThatExceptionOfType(StoreUnavailableException.class)
						.isThrownBy(() -> this.store.decide(checks))
						.withMessageContaining("answered nothing for 200 ms");
				}
			});
		}
	}

	@Test
	void redisAtMaxmemoryFailsDecisionsAtOnceInItsOwnWords() {
		CircuitBreaker breaker = new CircuitBreaker(3, Duration.ofSeconds(1));
		connect(RedisRateLimitStore.DEFAULT_TIMEOUT, breaker);
		assertThat(this.store.decide(List.of(check("10/1h", "warm-up"))).admitted()).isTrue();
		try (StatefulRedisConnection<String, String> admin = this.client.connect()) {
			// our own server: full, and evicting nothing
			admin.sync().set("filler", "x".repeat(4 * 1024 * 1024));
			admin.sync().configSet("maxmemory-policy", "noeviction");
			admin.sync().configSet("maxmemory", "1mb");
			try {
				for (int i = 0; i < 3; i++) {
					// refused, not timed out: Redis answered, and the failure says what
					// it answered
					assertThatExceptionOfType(StoreUnavailableException.class)
						.isThrownBy(() -> this.store.decide(List.of(check("10/1h", "alice"))))
						.satisfies((ex) -> assertThat(ex.kind()).isEqualTo(StoreUnavailableException.Kind.REFUSED))
						.withMessageContaining("OOM");
				}
				assertThat(breaker.state()).as("an error counts against the breaker").isEqualTo(State.OPEN);
			}
			finally {
				admin.sync().configSet("maxmemory", "0");
				admin.sync().del("filler");
			}
		}
	}

	@Test
	void aFreshStoresFirstDecisionsWaitForItsFirstConnect() throws Exception {
		// a connect that takes as long as the test says: a cold JVM loading Lettuce and
		// the script
		CountDownLatch connect = new CountDownLatch(1);
		this.client = RedisClient.create(server.url());
		RedisConnector slowToConnect = () -> {
			try {
				connect.await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			return RedisConnector.of(this.client).connect();
		};
		this.store = newStore(slowToConnect, Duration.ofSeconds(30), new CircuitBreaker());
		this.store.start();
		List<LimitCheck> checks = List.of(check("10/1h", "alice"));
		List<CompletableFuture<StoreDecision>> first = new ArrayList<>();
		for (int i = 0; i < 3; i++) {
			first.add(this.store.decideAsync(checks));
		}
		assertThat(first).as("waiting for the connect, not failed").noneMatch(CompletableFuture::isDone);
		connect.countDown();
		assertThat(first).allSatisfy((decision) -> assertThat(decision).succeedsWithin(Duration.ofSeconds(10))
			.satisfies((answer) -> assertThat(answer.admitted()).isTrue()));
		assertThat(this.store.decide(checks).results().get(0).bandwidths().get(0).remaining()).isEqualTo(6);
	}

	@Test
	void startsWhileRedisIsDownAndConnectsWhenItComesUp() {
		server.stop();
		connectLater(Duration.ofMillis(500), new CircuitBreaker(1000, Duration.ofSeconds(1)));
		List<LimitCheck> checks = List.of(check("10/1h", "alice"));
		assertThatExceptionOfType(StoreUnavailableException.class).isThrownBy(() -> this.store.decide(checks))
			.withMessageContaining("Not connected");
		server.restart();
		await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20)).until(() -> admits(checks));
	}

	@Test
	void aServerThatAnswersGarbageOrHangsGetsTheFailureModeAndNeverHoldsARequest() {
		for (FakeRedisServer.Behaviour behaviour : FakeRedisServer.Behaviour.values()) {
			try (FakeRedisServer fake = FakeRedisServer.start(behaviour)) {
				RedisClient fakeClient = RedisClient.create(fake.url());
				RedisRateLimitStore<?> broken = newStore(RedisConnector.of(fakeClient),
						RedisRateLimitStore.DEFAULT_TIMEOUT, new CircuitBreaker());
				try {
					broken.start();
					List<LimitCheck> checks = List.of(check("10/1h", "alice"));
					// each decision gets the failure mode: never connected, or silent
					// past the timeout; once the
					// breaker is open, at once
					assertTimeoutPreemptively(Duration.ofSeconds(15), () -> {
						for (int i = 0; i < 20; i++) {
							assertThatExceptionOfType(StoreUnavailableException.class).as("%s", behaviour)
								.isThrownBy(() -> broken.decide(checks));
							assertThat(broken.decideAsync(checks)).as("%s", behaviour)
								.failsWithin(Duration.ofSeconds(3))
								.withThrowableOfType(ExecutionException.class)
								.havingCause()
								.isInstanceOf(StoreUnavailableException.class);
						}
					});
					assertThat(broken.isConnected()).as("%s", behaviour).isFalse();
				}
				finally {
					broken.close();
					fakeClient.shutdown(Duration.ZERO, Duration.ofSeconds(1));
				}
			}
		}
	}

	protected boolean admits(List<LimitCheck> checks) {
		try {
			return this.store.decide(checks).admitted();
		}
		catch (StoreUnavailableException ex) {
			return false;
		}
	}

	protected void connect(Duration timeout, CircuitBreaker breaker) {
		connectLater(timeout, breaker);
		await().atMost(Duration.ofSeconds(10)).until(this.store::isConnected);
	}

	private void connectLater(Duration timeout, CircuitBreaker breaker) {
		this.client = RedisClient.create(server.url());
		this.store = newStore(RedisConnector.of(this.client), timeout, breaker);
		this.store.start();
	}

	/** A store of the strategy under test. */
	protected abstract RedisRateLimitStore<?> newStore(RedisConnector connector, Duration timeout,
			CircuitBreaker breaker);

	protected static LimitCheck check(String limit, String id) {
		Policy policy = new Policy("test", Dimension.USER, "default", LimitParser.parse(limit));
		return LimitCheck.enforced(policy, new StoreKeys(RedisTestServer.uniqueKeyPrefix("outage")).key(policy, id), 1);
	}

}
