package io.github.ratelimit.storage.redis.script;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.storage.BandwidthResult;
import io.github.ratelimit.storage.CheckResult;
import io.github.ratelimit.storage.LimitCheck;
import io.github.ratelimit.storage.StoreDecision;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two instances (stores with connections of their own) on one Redis under a concurrent
 * burst admit exactly what each kind allows: a fixed window its quota, twice around a
 * boundary; a sliding window its quota, and around a boundary only the share the previous
 * window leaves; a leaky bucket one request, and with a wait one per slot within it. The
 * time is pinned (one clock for both, as Redis's is) where a window or slot must not move
 * during the burst, and Redis's own where none can.
 */
class RedisScriptLimitKindsBurstTests {

	private static final int THREADS = 32;

	private static final int REQUESTS_PER_THREAD = 8;

	private final AtomicLong time = new AtomicLong();

	private ScriptStores stores;

	@BeforeEach
	void setUp(TestInfo test) {
		this.stores = new ScriptStores(test.getTestMethod().orElseThrow().getName());
	}

	@AfterEach
	void tearDown() throws Exception {
		this.stores.close();
	}

	@Test
	void fixedWindowAdmitsExactlyItsQuota() throws Exception {
		setTime("2030-06-10T12:00:30Z");
		List<RedisScriptRateLimitStore> instances = instances(this.time::get);
		assertThat(burst(instances, check("50/1m fixed", 1, 0))).isEqualTo(50);
	}

	@Test
	void fixedWindowAdmitsTwiceItsQuotaAroundABoundary() throws Exception {
		setTime("2030-06-10T12:00:59.900Z");
		List<RedisScriptRateLimitStore> instances = instances(this.time::get);
		LimitCheck check = check("50/1m fixed", 1, 0);
		assertThat(burst(instances, check)).isEqualTo(50);
		setTime("2030-06-10T12:01:00Z");
		assertThat(burst(instances, check)).isEqualTo(50);
	}

	@Test
	void slidingWindowAdmitsExactlyItsQuotaOnRedisClock() throws Exception {
		List<RedisScriptRateLimitStore> instances = instances(null);
		// even should an hour end during the burst, the previous window then weighs fully
		assertThat(burst(instances, check("50/1h sliding", 1, 0))).isEqualTo(50);
	}

	@Test
	void slidingWindowAdmitsOnlyThePreviousWindowsShareAroundABoundary() throws Exception {
		setTime("2030-06-10T12:00:59.900Z");
		List<RedisScriptRateLimitStore> instances = instances(this.time::get);
		LimitCheck check = check("50/1m sliding", 1, 0);
		assertThat(burst(instances, check)).isEqualTo(50);
		setTime("2030-06-10T12:01:00Z");
		assertThat(burst(instances, check)).isZero();
		// half way, the previous window's 50 weigh 25
		setTime("2030-06-10T12:01:30Z");
		assertThat(burst(instances, check)).isEqualTo(25);
	}

	@Test
	void slidingWindowCountsCostsExactly() throws Exception {
		setTime("2030-06-10T12:00:30Z");
		List<RedisScriptRateLimitStore> instances = instances(this.time::get);
		assertThat(burst(instances, check("50/1m sliding", 3, 0))).as("requests of 3").isEqualTo(16);
	}

	@Test
	void leakyBucketWithoutAWaitAdmitsOneOnRedisClock() throws Exception {
		List<RedisScriptRateLimitStore> instances = instances(null);
		// a slot every 864 s: none comes during the burst
		assertThat(burst(instances, check("100/1d leaky", 1, 0))).isOne();
	}

	@Test
	void leakyBucketQueuesExactlyTheSlotsWithinTheWait() throws Exception {
		setTime("2030-06-10T12:00:00Z");
		List<RedisScriptRateLimitStore> instances = instances(this.time::get);
		// a slot every 100 ms: now and 10 more within a second
		LimitCheck check = check("10/1s leaky", 1, 1000);
		List<StoreDecision> admitted = new ArrayList<>();
		assertThat(burst(instances, check, admitted)).isEqualTo(11);
		assertThat(admitted).extracting(StoreDecision::waitMillis)
			.containsExactlyInAnyOrder(0L, 100L, 200L, 300L, 400L, 500L, 600L, 700L, 800L, 900L, 1000L);
	}

	@Test
	void everyKindInOneRequestTakesFromAllOrNone() throws Exception {
		setTime("2030-06-10T12:00:30Z");
		List<RedisScriptRateLimitStore> instances = instances(this.time::get);
		// the leaky bucket queues 6 (now and 5 more within 5 s); the windows would allow
		// 10
		Policy policy = this.stores.policy("10/1m fixed, 10/1m sliding, 1/1s leaky");
		LimitCheck check = new LimitCheck(policy, this.stores.check(policy, "hot").key(), 1, true, 5000);
		assertThat(burst(instances, check)).isEqualTo(6);
		CheckResult read = instances.get(0).inspect(List.of(check)).get(0);
		assertThat(read.bandwidths()).extracting(BandwidthResult::remaining)
			.as("the refused requests took nothing from the windows")
			.containsExactly(4L, 4L, 0L);
	}

	private List<RedisScriptRateLimitStore> instances(@Nullable LongSupplier clock) {
		return List.of(this.stores.connected(RedisScriptRateLimitStore.DEFAULT_LEASE_TIME, clock),
				this.stores.connected(RedisScriptRateLimitStore.DEFAULT_LEASE_TIME, clock));
	}

	private int burst(List<RedisScriptRateLimitStore> instances, LimitCheck check) throws Exception {
		return burst(instances, check, new ArrayList<>());
	}

	/**
	 * Sends every request at once from both instances, half of the threads blocking, half
	 * asynchronously; returns how many were admitted.
	 */
	private int burst(List<RedisScriptRateLimitStore> instances, LimitCheck check, List<StoreDecision> admitted)
			throws Exception {
		AtomicInteger count = new AtomicInteger();
		CountDownLatch start = new CountDownLatch(1);
		ExecutorService executor = Executors.newFixedThreadPool(THREADS);
		try {
			List<Future<?>> futures = new ArrayList<>();
			for (int t = 0; t < THREADS; t++) {
				RedisScriptRateLimitStore store = instances.get(t % 2);
				boolean async = t % 4 < 2;
				futures.add(executor.submit(() -> {
					start.await();
					for (int r = 0; r < REQUESTS_PER_THREAD; r++) {
						StoreDecision decision = async ? store.decideAsync(List.of(check)).join()
								: store.decide(List.of(check));
						if (decision.admitted()) {
							count.incrementAndGet();
							synchronized (admitted) {
								admitted.add(decision);
							}
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
		return count.get();
	}

	private LimitCheck check(String limit, long cost, long maxWaitMillis) {
		Policy policy = this.stores.policy(limit);
		return new LimitCheck(policy, this.stores.check(policy, "hot").key(), cost, true, maxWaitMillis);
	}

	private void setTime(String instant) {
		this.time.set(Instant.parse(instant).toEpochMilli());
	}

}
