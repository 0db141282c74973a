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

import io.lettuce.core.LettuceVersion;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanIterator;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.LimitParser;
import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.storage.BandwidthResult;
import io.github.ratelimit.storage.LimitCheck;
import io.github.ratelimit.storage.StoreDecision;
import io.github.ratelimit.storage.StoreKeys;
import io.github.ratelimit.storage.StoreUnavailableException;
import io.github.ratelimit.storage.bucket4j.BucketConfigurations;
import io.github.ratelimit.storage.redis.connection.CircuitBreaker;
import io.github.ratelimit.storage.redis.connection.CircuitBreaker.State;
import io.github.ratelimit.storage.redis.connection.RedisConnector;
import io.github.ratelimit.test.ManualTimeMeter;
import io.github.ratelimit.test.redis.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * What every Redis strategy must do, against a real Redis ({@link RedisTestServer}) and
 * the Lettuce that Spring Boot manages: a subclass per strategy runs all of it.
 */
public abstract class RedisRateLimitStoreContractTests {

	/** The default: accuracy under concurrency must hold with it. */
	private static final Duration TIMEOUT = RedisRateLimitStore.DEFAULT_TIMEOUT;

	protected final List<AutoCloseable> resources = new ArrayList<>();

	protected String prefix;

	protected RedisCommands<String, String> redis;

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
		RedisRateLimitStore<?> store = connectedStore((ManualTimeMeter) null);
		LimitCheck check = check("5/1h", "alice", 1);
		assertThat(store.decide(List.of(check)).admitted()).isTrue();
		assertThat(remaining(store.decide(List.of(check)), 0)).containsExactly(3);
	}

	@Test
	void connectsWithTheNativeClientOfSpringDataConnectionFactory() {
		// as the auto-configuration does: Boot defines no RedisClient bean, only the
		// connection factory
		LettuceConnectionFactory factory = new LettuceConnectionFactory(
				LettuceConnectionFactory.createRedisConfiguration(RedisTestServer.url()));
		factory.afterPropertiesSet();
		this.resources.add(factory::destroy);
		RedisRateLimitStore<?> store = store(RedisConnector.of(factory::getRequiredNativeClient), TIMEOUT,
				new CircuitBreaker(), null);
		store.start();
		await().atMost(Duration.ofSeconds(10)).until(store::isConnected);
		assertThat(store.decide(List.of(check("5/1h", "alice", 1))).admitted()).isTrue();
	}

	@Test
	void admitsExactlyTheLimitUnderConcurrency() throws Exception {
		// two stores with their own clients and connections: two instances of the
		// application
		RedisRateLimitStore<?> first = connectedStore((ManualTimeMeter) null);
		RedisRateLimitStore<?> second = connectedStore((ManualTimeMeter) null);
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
				RedisRateLimitStore<?> store = (t % 2 == 0) ? first : second;
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
		RedisRateLimitStore<?> first = connectedStore((ManualTimeMeter) null);
		RedisRateLimitStore<?> second = connectedStore((ManualTimeMeter) null);
		// the org allows 30, each user 20: both users together get 30, never more, and no
		// bucket drained
		LimitCheck org = check(Dimension.ORG, "30/1h", "acme", 1);
		List<List<LimitCheck>> requests = List.of(List.of(org, check("20/1h", "alice", 1)),
				List.of(org, check("20/1h", "bob", 1)));
		AtomicInteger admitted = new AtomicInteger();
		CountDownLatch start = new CountDownLatch(1);
		ExecutorService executor = Executors.newFixedThreadPool(32);
		try {
			List<Future<?>> futures = new ArrayList<>();
			for (int t = 0; t < 32; t++) {
				RedisRateLimitStore<?> store = (t % 2 == 0) ? first : second;
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
		long aliceLeft = remaining(first.decide(List.of(check("20/1h", "alice", 1))), 0)[0];
		long bobLeft = remaining(first.decide(List.of(check("20/1h", "bob", 1))), 0)[0];
		// 30 admitted in all, each consumed once from its user; then one more each just
		// now
		assertThat((20 - aliceLeft - 1) + (20 - bobLeft - 1)).isEqualTo(30);
	}

	@Test
	void rejectedRequestDrainsNoBucket() {
		RedisRateLimitStore<?> store = connectedStore(new ManualTimeMeter());
		LimitCheck user = check(Dimension.USER, "10/1h", "alice", 1);
		LimitCheck org = check(Dimension.ORG, "1/1h", "acme", 1);
		assertThat(store.decide(List.of(user, org)).admitted()).isTrue();

		StoreDecision rejected = store.decide(List.of(user, org));

		assertThat(rejected.admitted()).isFalse();
		assertThat(rejected.results().get(0).hadTokens()).as("the user bucket had the tokens").isTrue();
		assertThat(remaining(rejected, 0)).as("and keeps them").containsExactly(9);
		assertThat(rejected.results().get(1).hadTokens()).isFalse();
		assertThat(remaining(rejected, 1)).containsExactly(0);
		assertThat(remaining(store.decide(List.of(user)), 0)).containsExactly(8);
	}

	@Test
	void givesTokensBackWithoutWaitingAndNeverAboveCapacity() {
		RedisRateLimitStore<?> store = connectedStore(new ManualTimeMeter());
		LimitCheck check = check("3/1h", "alice", 1);
		for (int i = 0; i < 3; i++) {
			assertThat(store.decide(List.of(check)).admitted()).isTrue();
		}
		assertThat(store.decide(List.of(check)).admitted()).isFalse();
		// sent without waiting for Redis: the tokens are there once Redis has run it
		store.giveBack(List.of(check("3/1h", "alice", 5)));
		await().atMost(Duration.ofSeconds(10)).until(() -> store.decide(List.of(check)).admitted());
		assertThat(remaining(store.decide(List.of(check)), 0)).containsExactly(1);
	}

	@Test
	void reportsRemainingPerBandwidth() {
		ManualTimeMeter clock = new ManualTimeMeter();
		RedisRateLimitStore<?> store = connectedStore(clock);
		LimitCheck check = check("10/1m, 100/1h", "alice", 3);

		assertThat(remaining(store.decide(List.of(check)), 0)).containsExactly(7, 97);
		assertThat(remaining(store.decide(List.of(check)), 0)).containsExactly(4, 94);
		assertThat(remaining(store.decide(List.of(check)), 0)).containsExactly(1, 91);
		StoreDecision rejected = store.decide(List.of(check));
		assertThat(rejected.admitted()).isFalse();
		assertThat(remaining(rejected, 0)).containsExactly(1, 91);
	}

	@Test
	void refillsByTheInjectedClock() {
		ManualTimeMeter clock = new ManualTimeMeter();
		RedisRateLimitStore<?> store = connectedStore(clock);
		LimitCheck check = check("10/1m", "alice", 10);
		assertThat(store.decide(List.of(check)).admitted()).isTrue();
		assertThat(store.decide(List.of(check)).admitted()).isFalse();
		clock.advance(Duration.ofSeconds(30));
		assertThat(store.decide(List.of(check("10/1m", "alice", 6))).admitted()).isFalse();
		StoreDecision half = store.decide(List.of(check("10/1m", "alice", 5)));
		assertThat(half.admitted()).isTrue();
		assertThat(remaining(half, 0)).containsExactly(0);
	}

	@Test
	void burstOnOneKeyIsDecidedExactlyWithTheDefaultTimeout() {
		// two instances, every request at once: a burst is not an outage
		RedisRateLimitStore<?> first = connectedStore(RedisRateLimitStore.DEFAULT_TIMEOUT);
		RedisRateLimitStore<?> second = connectedStore(RedisRateLimitStore.DEFAULT_TIMEOUT);
		LimitCheck user = check(Dimension.USER, "50/1h", "hot", 1);
		// a token comes back every 86 s: none refills while the test runs, so the count
		// is exact
		LimitCheck ip = check(Dimension.IP, "1000/1d", "203.0.113.1", 1);
		List<CompletableFuture<StoreDecision>> decisions = new ArrayList<>();
		for (int i = 0; i < 500; i++) {
			decisions.add(((i % 2 == 0) ? first : second).decideAsync(List.of(user, ip)));
		}
		long admitted = decisions.stream().map(CompletableFuture::join).filter(StoreDecision::admitted).count();
		assertThat(admitted).isEqualTo(50);
		assertThat(first.circuitBreaker().state()).isEqualTo(State.CLOSED);
		assertThat(second.circuitBreaker().state()).isEqualTo(State.CLOSED);
		assertThat(remaining(first.decide(List.of(ip)), 0)).as("the 450 refusals took nothing")
			.containsExactly(1000 - 51);
	}

	@Test
	void reportsWaitsOfTheRefusingBandwidth() {
		ManualTimeMeter clock = new ManualTimeMeter();
		RedisRateLimitStore<?> store = connectedStore(clock);
		LimitCheck check = check("10/1m, 100/1h", "alice", 10);
		assertThat(store.decide(List.of(check)).results().get(0).bandwidths())
			.containsExactly(new BandwidthResult(0, 0, 60_000, 60_000), new BandwidthResult(90, 0, 360_000, 0));
		clock.advance(Duration.ofSeconds(30));
		StoreDecision refused = store.decide(List.of(check));
		assertThat(refused.admitted()).isFalse();
		assertThat(refused.results().get(0).bandwidths().get(0))
			.isEqualTo(new BandwidthResult(5, 30_000, 30_000, 30_000));
		assertThat(refused.results().get(0).bandwidths().get(1).wasShort()).isFalse();
	}

	@Test
	void checkThatIsNotEnforcedIsMeasuredButNeverRefuses() {
		RedisRateLimitStore<?> store = connectedStore();
		LimitCheck enforced = check("10/1h", "alice", 1);
		LimitCheck spent = check(Dimension.ORG, "1/1h", "acme", 1);
		store.decide(List.of(spent));
		LimitCheck observed = new LimitCheck(spent.policy(), spent.key(), 1, false);
		StoreDecision decision = store.decide(List.of(enforced, observed));
		assertThat(decision.admitted()).isTrue();
		assertThat(decision.results().get(1).hadTokens()).isFalse();
		assertThat(remaining(decision, 0)).containsExactly(9);
	}

	@Test
	void idleKeysExpire() {
		RedisRateLimitStore<?> store = connectedStore((ManualTimeMeter) null);
		LimitCheck minute = check("10/1m", "alice", 10);
		store.decide(List.of(minute));
		long ttl = this.redis.pttl(redisKey(store, minute));
		Duration timeToFull = BucketConfigurations.timeToFull(minute.policy());
		assertThat(ttl).as("PTTL of %s", redisKey(store, minute))
			.isPositive()
			.isLessThanOrEqualTo(timeToFull.plusSeconds(2).toMillis());

		LimitCheck shortWindow = check("1/100ms", "bob", 1);
		store.decide(List.of(shortWindow));
		assertThat(this.redis.exists(redisKey(store, shortWindow))).isEqualTo(1);
		await().atMost(Duration.ofSeconds(10)).until(() -> this.redis.exists(redisKey(store, shortWindow)) == 0);
	}

	/**
	 * The key a store keeps a check's bucket under (the Bucket4j strategy: one per exact
	 * limit).
	 */
	protected static String redisKey(RedisRateLimitStore<?> store, LimitCheck check) {
		return new String(store.bucketKey(check), java.nio.charset.StandardCharsets.UTF_8);
	}

	@Test
	void aBusyKeyOutlivesItsTimeToFull() {
		// a key forgotten before its bucket is full again would come back full: more
		// admitted
		RedisRateLimitStore<?> store = connectedStore((ManualTimeMeter) null);
		LimitCheck check = check("1000/1m", "carol", 1);
		for (int i = 1; i <= 300; i++) {
			StoreDecision decision = store.decide(List.of(check));
			assertThat(decision.admitted()).isTrue();
			long untilFull = decision.results().get(0).bandwidths().get(0).millisUntilFull();
			long ttl = this.redis.pttl(redisKey(store, check));
			assertThat(ttl).as("PTTL after decision %d, %d ms until full", i, untilFull)
				.isGreaterThanOrEqualTo(untilFull - 250)
				.isLessThanOrEqualTo(untilFull + 2_000);
		}
	}

	@Test
	void keysUseTheConfiguredPrefix() {
		RedisRateLimitStore<?> store = connectedStore((ManualTimeMeter) null);
		LimitCheck user = check(Dimension.USER, "10/1m", "alice", 1);
		LimitCheck ip = check(Dimension.IP, "100/1m", "203.0.113.7", 1);
		store.decide(List.of(user, ip));
		assertThat(user.key()).startsWith(this.prefix);
		assertThat(keys(this.prefix)).containsExactlyInAnyOrder(redisKey(store, user), redisKey(store, ip));
	}

	@Test
	void failsFastWhenRedisIsDown() {
		int closedPort = io.github.ratelimit.test.redis.RedisServerProcess.freePort();
		RedisRateLimitStore<?> store = store(RedisConnector.of(client("redis://127.0.0.1:" + closedPort)),
				RedisRateLimitStore.DEFAULT_TIMEOUT, new CircuitBreaker(), null);
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
		// a socket that accepts connections but never replies: the connect handshake
		// hangs in the background
		try (java.net.ServerSocket silent = new java.net.ServerSocket(0, 50,
				java.net.InetAddress.getLoopbackAddress())) {
			RedisRateLimitStore<?> store = store(
					RedisConnector.of(client("redis://127.0.0.1:" + silent.getLocalPort())),
					RedisRateLimitStore.DEFAULT_TIMEOUT, new CircuitBreaker(), null);
			store.start();
			List<LimitCheck> checks = List.of(check("10/1m", "alice", 1));
			// a first connect under way is waited for, up to the timeout (1 s): five
			// decisions pay it, then the
			// breaker is open and only its probes, one a second, wait
			assertTimeoutPreemptively(Duration.ofSeconds(15), () -> {
				for (int i = 0; i < 20; i++) {
					assertThatExceptionOfType(StoreUnavailableException.class).isThrownBy(() -> store.decide(checks));
				}
			});
		}
	}

	protected RedisRateLimitStore<?> connectedStore(@Nullable ManualTimeMeter clock) {
		RedisRateLimitStore<?> store = store(RedisConnector.of(client(RedisTestServer.url())), TIMEOUT,
				new CircuitBreaker(1000, Duration.ofSeconds(1)), clock);
		store.start();
		await().atMost(Duration.ofSeconds(10)).until(store::isConnected);
		return store;
	}

	/** A connected store with the default circuit breaker. */
	protected RedisRateLimitStore<?> connectedStore(Duration timeout) {
		RedisRateLimitStore<?> store = store(RedisConnector.of(client(RedisTestServer.url())), timeout,
				new CircuitBreaker(), null);
		store.start();
		await().atMost(Duration.ofSeconds(10)).until(store::isConnected);
		return store;
	}

	private RedisRateLimitStore<?> store(RedisConnector connector, Duration timeout, CircuitBreaker breaker,
			@Nullable ManualTimeMeter clock) {
		RedisRateLimitStore<?> store = newStore(connector, timeout, breaker, clock);
		this.resources.add(store);
		return store;
	}

	/**
	 * A store of the strategy under test.
	 * @param clock the clock of the buckets, or {@code null} for the strategy's own
	 */
	protected abstract RedisRateLimitStore<?> newStore(RedisConnector connector, Duration timeout,
			CircuitBreaker breaker, @Nullable ManualTimeMeter clock);

	protected final RedisRateLimitStore<?> connectedStore() {
		return connectedStore((ManualTimeMeter) null);
	}

	protected static long[] remaining(StoreDecision decision, int check) {
		return decision.results().get(check).bandwidths().stream().mapToLong(BandwidthResult::remaining).toArray();
	}

	protected RedisClient client(String url) {
		RedisClient client = RedisClient.create(url);
		this.resources.add(client::shutdown);
		return client;
	}

	protected LimitCheck check(String limit, String id, long cost) {
		return check(Dimension.USER, limit, id, cost);
	}

	protected LimitCheck check(Dimension dimension, String limit, String id, long cost) {
		Policy policy = new Policy("test", dimension, "default", LimitParser.parse(limit));
		return LimitCheck.enforced(policy, new StoreKeys(this.prefix).key(policy, id), cost);
	}

	protected Set<String> keys(String prefix) {
		Set<String> keys = new java.util.HashSet<>();
		ScanIterator.scan(this.redis, ScanArgs.Builder.matches(prefix + "*").limit(1000)).forEachRemaining(keys::add);
		return keys;
	}

}
