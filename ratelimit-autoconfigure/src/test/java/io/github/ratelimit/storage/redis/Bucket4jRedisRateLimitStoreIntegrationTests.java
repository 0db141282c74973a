package io.github.ratelimit.storage.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.bucket4j.TimeMeter;
import io.lettuce.core.LettuceVersion;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanIterator;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.LimitParser;
import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.storage.bucket4j.BucketConfigurations;
import io.github.ratelimit.storage.LimitCheck;
import io.github.ratelimit.storage.StoreDecision;
import io.github.ratelimit.storage.StoreUnavailableException;
import io.github.ratelimit.storage.redis.CircuitBreaker.State;
import io.github.ratelimit.test.ManualTimeMeter;
import io.github.ratelimit.test.redis.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * Tests for {@link Bucket4jRedisRateLimitStore} against a real Redis ({@link RedisTestServer}), with
 * Bucket4j's Lettuce module (built against Lettuce 6) running on the Lettuce that Spring Boot manages.
 */
class Bucket4jRedisRateLimitStoreIntegrationTests {

	/** Generous: these tests check accuracy, not latency, on a possibly busy machine. */
	private static final Duration TIMEOUT = Duration.ofSeconds(2);

	private final List<AutoCloseable> resources = new ArrayList<>();

	private String prefix;

	private RedisCommands<String, String> redis;

	@BeforeEach
	void setUp(TestInfo test) {
		this.prefix = RedisTestServer.uniqueKeyPrefix(test.getTestMethod().orElseThrow().getName());
		RedisClient client = client(RedisTestServer.url());
		StatefulRedisConnection<String, String> connection = client.connect();
		this.resources.add(connection);
		this.redis = connection.sync();
	}

	@AfterEach
	void tearDown() throws Exception {
		if (this.redis != null) {
			// our keys only: the server may be shared, so it is never flushed
			for (String key : keys(this.prefix)) {
				this.redis.del(key);
			}
		}
		for (int i = this.resources.size() - 1; i >= 0; i--) {
			this.resources.get(i).close();
		}
	}

	@Test
	void runsOnTheLettuceThatSpringBootManages() {
		assertThat(LettuceVersion.getVersion()).startsWith("7.");
		Bucket4jRedisRateLimitStore store = connectedStore(TimeMeter.SYSTEM_MILLISECONDS);
		LimitCheck check = check("5/1h", "alice", 1);
		// a new key (SET NX PX), then an existing one (GET + compare-and-swap EVAL)
		assertThat(store.decide(List.of(check)).admitted()).isTrue();
		assertThat(store.decide(List.of(check)).results().get(0).available()).containsExactly(3);
	}

	@Test
	void connectsWithTheNativeClientOfSpringDataConnectionFactory() {
		// as the auto-configuration does: Boot defines no RedisClient bean, only the connection factory
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				LettuceConnectionFactory.createRedisConfiguration(RedisTestServer.url()));
		factory.afterPropertiesSet();
		this.resources.add(factory::destroy);
		Bucket4jRedisRateLimitStore store = store(RedisConnector.of(factory::getRequiredNativeClient), TIMEOUT,
				new CircuitBreaker(), TimeMeter.SYSTEM_MILLISECONDS);
		store.start();
		await().atMost(Duration.ofSeconds(10)).until(store::isConnected);
		assertThat(store.decide(List.of(check("5/1h", "alice", 1))).admitted()).isTrue();
	}

	@Test
	void admitsExactlyTheLimitUnderConcurrency() throws Exception {
		// two stores with their own clients and connections: two instances of the application
		Bucket4jRedisRateLimitStore first = connectedStore(TimeMeter.SYSTEM_MILLISECONDS);
		Bucket4jRedisRateLimitStore second = connectedStore(TimeMeter.SYSTEM_MILLISECONDS);
		LimitCheck check = check("50/1h", "hot", 1);
		int threads = 64;
		int requestsPerThread = 4;
		AtomicInteger admitted = new AtomicInteger();
		AtomicInteger rejected = new AtomicInteger();
		CountDownLatch start = new CountDownLatch(1);
		ExecutorService executor = Executors.newFixedThreadPool(threads);
		try {
			List<Future<?>> futures = new ArrayList<>();
			for (int t = 0; t < threads; t++) {
				Bucket4jRedisRateLimitStore store = (t % 2 == 0) ? first : second;
				boolean async = t % 4 < 2;
				futures.add(executor.submit(() -> {
					start.await();
					for (int r = 0; r < requestsPerThread; r++) {
						StoreDecision decision = async ? store.decideAsync(List.of(check)).join()
								: store.decide(List.of(check));
						(decision.admitted() ? admitted : rejected).incrementAndGet();
					}
					return null;
				}));
			}
			long began = System.nanoTime();
			start.countDown();
			for (Future<?> future : futures) {
				future.get();
			}
			long millis = (System.nanoTime() - began) / 1_000_000;
			System.out.printf("%d decisions by %d threads on 2 instances in %d ms%n", threads * requestsPerThread,
					threads, millis);
		}
		finally {
			executor.shutdownNow();
		}
		assertThat(admitted).hasValue(50);
		assertThat(rejected).hasValue(threads * requestsPerThread - 50);
	}

	@Test
	void admitsExactlyTheLimitUnderConcurrencyWithSeveralChecks() throws Exception {
		Bucket4jRedisRateLimitStore first = connectedStore(TimeMeter.SYSTEM_MILLISECONDS);
		Bucket4jRedisRateLimitStore second = connectedStore(TimeMeter.SYSTEM_MILLISECONDS);
		// the org allows 30, each user 20: both users together get 30, never more, and no bucket drained
		LimitCheck org = check(Dimension.ORG, "30/1h", "acme", 1);
		List<List<LimitCheck>> requests = List.of(List.of(org, check("20/1h", "alice", 1)),
				List.of(org, check("20/1h", "bob", 1)));
		AtomicInteger admitted = new AtomicInteger();
		CountDownLatch start = new CountDownLatch(1);
		ExecutorService executor = Executors.newFixedThreadPool(32);
		try {
			List<Future<?>> futures = new ArrayList<>();
			for (int t = 0; t < 32; t++) {
				Bucket4jRedisRateLimitStore store = (t % 2 == 0) ? first : second;
				List<LimitCheck> checks = requests.get((t / 2) % 2);
				futures.add(executor.submit(() -> {
					start.await();
					for (int r = 0; r < 4; r++) {
						if (store.decide(checks).admitted()) {
							admitted.incrementAndGet();
						}
					}
					return null;
				}));
			}
			start.countDown();
			for (Future<?> future : futures) {
				future.get();
			}
		}
		finally {
			executor.shutdownNow();
		}
		assertThat(admitted).hasValue(30);
		long aliceLeft = first.decide(List.of(check("20/1h", "alice", 1))).results().get(0).available()[0];
		long bobLeft = first.decide(List.of(check("20/1h", "bob", 1))).results().get(0).available()[0];
		// 30 admitted in all, each consumed once from its user; then one more each just now
		assertThat((20 - aliceLeft - 1) + (20 - bobLeft - 1)).isEqualTo(30);
	}

	@Test
	void rejectedRequestDrainsNoBucket() {
		Bucket4jRedisRateLimitStore store = connectedStore(new ManualTimeMeter());
		LimitCheck user = check(Dimension.USER, "10/1h", "alice", 1);
		LimitCheck org = check(Dimension.ORG, "1/1h", "acme", 1);
		assertThat(store.decide(List.of(user, org)).admitted()).isTrue();

		StoreDecision rejected = store.decide(List.of(user, org));

		assertThat(rejected.admitted()).isFalse();
		assertThat(rejected.results().get(0).admitted()).as("the user bucket had the tokens").isTrue();
		assertThat(rejected.results().get(0).available()).as("and keeps them").containsExactly(9);
		assertThat(rejected.results().get(1).admitted()).isFalse();
		assertThat(rejected.results().get(1).available()).containsExactly(0);
		assertThat(store.decide(List.of(user)).results().get(0).available()).containsExactly(8);
	}

	@Test
	void reportsRemainingPerBandwidth() {
		ManualTimeMeter clock = new ManualTimeMeter();
		Bucket4jRedisRateLimitStore store = connectedStore(clock);
		LimitCheck check = check("10/1m, 100/1h", "alice", 3);

		assertThat(store.decide(List.of(check)).results().get(0).available()).containsExactly(7, 97);
		assertThat(store.decide(List.of(check)).results().get(0).available()).containsExactly(4, 94);
		assertThat(store.decide(List.of(check)).results().get(0).available()).containsExactly(1, 91);
		StoreDecision rejected = store.decide(List.of(check));
		assertThat(rejected.admitted()).isFalse();
		assertThat(rejected.results().get(0).available()).containsExactly(1, 91);
	}

	@Test
	void refillsByTheClockOfTheApplication() {
		ManualTimeMeter clock = new ManualTimeMeter();
		Bucket4jRedisRateLimitStore store = connectedStore(clock);
		LimitCheck check = check("10/1m", "alice", 10);
		assertThat(store.decide(List.of(check)).admitted()).isTrue();
		assertThat(store.decide(List.of(check)).admitted()).isFalse();
		clock.advance(Duration.ofSeconds(30));
		assertThat(store.decide(List.of(check("10/1m", "alice", 6))).admitted()).isFalse();
		StoreDecision half = store.decide(List.of(check("10/1m", "alice", 5)));
		assertThat(half.admitted()).isTrue();
		assertThat(half.results().get(0).available()).containsExactly(0);
	}

	@Test
	void idleKeysExpire() {
		Bucket4jRedisRateLimitStore store = connectedStore(TimeMeter.SYSTEM_MILLISECONDS);
		LimitCheck minute = check("10/1m", "alice", 10);
		store.decide(List.of(minute));
		long ttl = this.redis.pttl(minute.key());
		Duration timeToFull = BucketConfigurations.timeToFull(minute.policy());
		assertThat(ttl).as("PTTL of %s", minute.key()).isPositive()
			.isLessThanOrEqualTo(timeToFull.plusSeconds(2).toMillis());

		LimitCheck shortWindow = check("1/100ms", "bob", 1);
		store.decide(List.of(shortWindow));
		assertThat(this.redis.exists(shortWindow.key())).isEqualTo(1);
		await().atMost(Duration.ofSeconds(10)).until(() -> this.redis.exists(shortWindow.key()) == 0);
	}

	@Test
	void keysUseTheConfiguredPrefix() {
		Bucket4jRedisRateLimitStore store = connectedStore(TimeMeter.SYSTEM_MILLISECONDS);
		LimitCheck user = check(Dimension.USER, "10/1m", "alice", 1);
		LimitCheck ip = check(Dimension.IP, "100/1m", "203.0.113.7", 1);
		store.decide(List.of(user, ip));
		assertThat(user.key()).startsWith(this.prefix);
		assertThat(keys(this.prefix)).containsExactlyInAnyOrder(user.key(), ip.key());
	}

	@Test
	void failsFastWhenRedisIsDown() {
		int closedPort = io.github.ratelimit.test.redis.RedisServerProcess.freePort();
		Bucket4jRedisRateLimitStore store = store(RedisConnector.of(client("redis://127.0.0.1:" + closedPort)),
				Bucket4jRedisRateLimitStore.DEFAULT_TIMEOUT, new CircuitBreaker(), TimeMeter.SYSTEM_MILLISECONDS);
		List<LimitCheck> checks = List.of(check("10/1m", "alice", 1));
		assertTimeoutPreemptively(Duration.ofSeconds(5), () -> {
			for (int i = 0; i < 100; i++) {
				assertThatExceptionOfType(StoreUnavailableException.class).isThrownBy(() -> store.decide(checks));
				CompletableFuture<StoreDecision> async = store.decideAsync(checks);
				assertThat(async).failsWithin(Duration.ofSeconds(1))
					.withThrowableOfType(java.util.concurrent.ExecutionException.class)
					.havingCause()
					.isExactlyInstanceOf(StoreUnavailableException.class);
			}
		});
		assertThat(store.isConnected()).isFalse();
		assertThat(store.circuitBreaker().state()).isNotEqualTo(State.CLOSED);
	}

	@Test
	void failsFastWhileRedisDoesNotAnswer() throws Exception {
		// a socket that accepts connections but never replies: the connect handshake hangs in the background
		try (java.net.ServerSocket silent = new java.net.ServerSocket(0, 50, java.net.InetAddress.getLoopbackAddress())) {
			Bucket4jRedisRateLimitStore store = store(
					RedisConnector.of(client("redis://127.0.0.1:" + silent.getLocalPort())),
					Bucket4jRedisRateLimitStore.DEFAULT_TIMEOUT, new CircuitBreaker(), TimeMeter.SYSTEM_MILLISECONDS);
			store.start();
			List<LimitCheck> checks = List.of(check("10/1m", "alice", 1));
			assertTimeoutPreemptively(Duration.ofSeconds(5), () -> {
				for (int i = 0; i < 20; i++) {
					assertThatExceptionOfType(StoreUnavailableException.class).isThrownBy(() -> store.decide(checks));
				}
			});
		}
	}

	private Bucket4jRedisRateLimitStore connectedStore(TimeMeter clock) {
		Bucket4jRedisRateLimitStore store = store(RedisConnector.of(client(RedisTestServer.url())), TIMEOUT,
				new CircuitBreaker(1000, Duration.ofSeconds(1)), clock);
		store.start();
		await().atMost(Duration.ofSeconds(10)).until(store::isConnected);
		return store;
	}

	private Bucket4jRedisRateLimitStore store(RedisConnector connector, Duration timeout, CircuitBreaker breaker,
			TimeMeter clock) {
		Bucket4jRedisRateLimitStore store = new Bucket4jRedisRateLimitStore(connector, timeout, breaker, clock, 1000);
		this.resources.add(store);
		return store;
	}

	private RedisClient client(String url) {
		RedisClient client = RedisClient.create(url);
		this.resources.add(client::shutdown);
		return client;
	}

	private LimitCheck check(String limit, String id, long cost) {
		return check(Dimension.USER, limit, id, cost);
	}

	private LimitCheck check(Dimension dimension, String limit, String id, long cost) {
		Policy policy = new Policy("test", dimension, "default", LimitParser.parse(limit), this.prefix);
		return new LimitCheck(policy, policy.storeKey(id), cost);
	}

	private Set<String> keys(String prefix) {
		Set<String> keys = new java.util.HashSet<>();
		ScanIterator.scan(this.redis, ScanArgs.Builder.matches(prefix + "*").limit(1000)).forEachRemaining(keys::add);
		return keys;
	}

}
