package io.github.ratelimit.storage.redis.script;

import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

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
import static org.awaitility.Awaitility.await;

/**
 * Fixed windows, sliding windows and leaky buckets in the script store, against a real
 * Redis, on the time the test sets: what each kind admits, what it reports, what it gives
 * back, and how long its keys live.
 */
class RedisScriptLimitKindsTests {

	private static final long SECOND = 1000;

	private static final long MINUTE = 60 * SECOND;

	private final AtomicLong time = new AtomicLong();

	private ScriptStores stores;

	private RedisScriptRateLimitStore store;

	@BeforeEach
	void setUp(TestInfo test) {
		this.stores = new ScriptStores(test.getTestMethod().orElseThrow().getName());
		this.store = this.stores.connected(RedisScriptRateLimitStore.DEFAULT_LEASE_TIME, this.time::get);
	}

	@AfterEach
	void tearDown() throws Exception {
		this.stores.close();
	}

	// fixed windows

	@Test
	void fixedWindowCountsPerWindowAndGivesEverythingBackAtItsEnd() {
		setTime("2030-06-10T12:00:30Z");
		LimitCheck check = check("3/1m fixed", "alice", 1);
		assertThat(result(decide(check))).isEqualTo(new BandwidthResult(2, 0, 30 * SECOND, 0));
		decide(check);
		assertThat(result(decide(check))).isEqualTo(new BandwidthResult(0, 0, 30 * SECOND, 30 * SECOND));
		StoreDecision refused = decide(check);
		assertThat(refused.admitted()).isFalse();
		assertThat(refused.results().get(0).hadTokens()).isFalse();
		assertThat(result(refused)).isEqualTo(new BandwidthResult(0, 30 * SECOND, 30 * SECOND, 30 * SECOND));
		setTime("2030-06-10T12:00:59.999Z");
		assertThat(result(decide(check)).millisUntilCost()).isEqualTo(1);
		setTime("2030-06-10T12:01:00Z");
		StoreDecision next = decide(check);
		assertThat(next.admitted()).isTrue();
		assertThat(result(next)).isEqualTo(new BandwidthResult(2, 0, MINUTE, 0));
	}

	@Test
	void fixedWindowLetsTwiceItsQuotaThroughAroundABoundary() {
		setTime("2030-06-10T12:00:59.900Z");
		LimitCheck check = check("5/1m fixed", "alice", 1);
		assertThat(admittedOf(check, 10)).isEqualTo(5);
		setTime("2030-06-10T12:01:00Z");
		assertThat(admittedOf(check, 10)).isEqualTo(5);
	}

	@Test
	void fixedWindowNeverWaits() {
		setTime("2030-06-10T12:00:00Z");
		LimitCheck check = waiting("1/1s fixed", "alice", 5000);
		decide(check);
		StoreDecision refused = decide(check);
		assertThat(refused.admitted()).isFalse();
		assertThat(refused.waitMillis()).isZero();
	}

	@Test
	void fixedWindowKeyExpiresAtTheWindowsEnd() {
		setTime("2030-06-10T12:00:45Z");
		LimitCheck check = check("3/1m fixed", "alice", 1);
		decide(check);
		assertThat(this.stores.redis().pttl(check.key())).isPositive().isLessThanOrEqualTo(15 * SECOND);
	}

	// sliding windows

	@Test
	void slidingWindowWeighsThePreviousWindowByHowMuchOfItStillSlides() {
		setTime("2030-06-10T12:00:00Z");
		LimitCheck check = check("10/1m sliding", "alice", 1);
		assertThat(admittedOf(check, 12)).isEqualTo(10);
		// the next window: the previous one's 10 still weigh fully
		setTime("2030-06-10T12:01:00Z");
		StoreDecision refused = decide(check);
		assertThat(refused.admitted()).isFalse();
		// one fits once a tenth of the previous window has slid out
		assertThat(result(refused)).isEqualTo(new BandwidthResult(0, 6 * SECOND, MINUTE, 6 * SECOND));
		setTime("2030-06-10T12:01:05.999Z");
		assertThat(decide(check).admitted()).isFalse();
		setTime("2030-06-10T12:01:06Z");
		StoreDecision admitted = decide(check);
		assertThat(admitted.admitted()).isTrue();
		// previous 10 x 54/60 + current 1 = 10: nothing left; empty once this window
		// slid out
		assertThat(result(admitted)).isEqualTo(new BandwidthResult(0, 0, 114 * SECOND, 6 * SECOND));
		// half way: 10 x 30/60 + 1 = 6 before, 7 after this request
		setTime("2030-06-10T12:01:30Z");
		assertThat(result(decide(check))).isEqualTo(new BandwidthResult(3, 0, 90 * SECOND, 0));
	}

	@Test
	void slidingWindowLetsNoMoreThanItsQuotaThroughAroundABoundary() {
		setTime("2030-06-10T12:00:59.900Z");
		LimitCheck check = check("5/1m sliding", "alice", 1);
		assertThat(admittedOf(check, 10)).isEqualTo(5);
		setTime("2030-06-10T12:01:00Z");
		assertThat(admittedOf(check, 10)).isZero();
	}

	@Test
	void slidingWindowForgetsEverythingAfterTwoWindows() {
		setTime("2030-06-10T12:00:10Z");
		LimitCheck check = check("2/1m sliding", "alice", 2);
		decide(check);
		assertThat(this.stores.redis().pttl(check.key())).isPositive().isLessThanOrEqualTo(110 * SECOND);
		setTime("2030-06-10T12:02:00Z");
		assertThat(result(decide(check))).isEqualTo(new BandwidthResult(0, 0, 2 * MINUTE, 2 * MINUTE));
	}

	@Test
	void slidingWindowNeverWaits() {
		setTime("2030-06-10T12:00:00Z");
		LimitCheck check = waiting("1/1s sliding", "alice", 5000);
		decide(check);
		StoreDecision refused = decide(check);
		assertThat(refused.admitted()).isFalse();
		assertThat(refused.waitMillis()).isZero();
		assertThat(result(refused).millisUntilCost()).isEqualTo(2 * SECOND);
	}

	// leaky buckets

	@Test
	void leakyBucketLetsOneRequestThroughPerSlot() {
		setTime("2030-06-10T12:00:00Z");
		LimitCheck check = check("2/1s leaky", "alice", 1);
		StoreDecision first = decide(check);
		assertThat(first.admitted()).isTrue();
		assertThat(result(first)).isEqualTo(new BandwidthResult(0, 0, 500, 500));
		StoreDecision refused = decide(check);
		assertThat(refused.admitted()).isFalse();
		assertThat(refused.results().get(0).hadTokens()).isFalse();
		assertThat(result(refused)).isEqualTo(new BandwidthResult(0, 500, 500, 500));
		advance(499);
		assertThat(decide(check).admitted()).isFalse();
		advance(1);
		assertThat(decide(check).admitted()).isTrue();
		assertThat(result(this.store.inspect(List.of(check)).get(0)).remaining()).isZero();
		advance(500);
		assertThat(result(this.store.inspect(List.of(check)).get(0)).remaining()).isOne();
	}

	@Test
	void leakyBucketQueuesRequestsForSlotsWithinTheirWait() {
		setTime("2030-06-10T12:00:00Z");
		LimitCheck check = waiting("2/1s leaky", "alice", 1000);
		assertThat(decide(check).waitMillis()).isZero();
		assertThat(decide(check).waitMillis()).isEqualTo(500);
		StoreDecision third = decide(check);
		assertThat(third.admitted()).isTrue();
		assertThat(third.waitMillis()).isEqualTo(1000);
		assertThat(third.results().get(0).hadTokens()).isTrue();
		assertThat(result(third)).isEqualTo(new BandwidthResult(0, 1000, 1500, 1500));
		StoreDecision refused = decide(check);
		assertThat(refused.admitted()).isFalse();
		assertThat(refused.waitMillis()).isZero();
		assertThat(result(refused).millisUntilCost()).isEqualTo(1500);
		// the refusal queued nothing: half a second later the next slot is a second away
		advance(500);
		assertThat(decide(check).waitMillis()).isEqualTo(1000);
	}

	@Test
	void leakyBucketRequestOfCostTwoTakesTwoSlots() {
		setTime("2030-06-10T12:00:00Z");
		Policy policy = this.stores.policy("4/1s leaky");
		LimitCheck pair = new LimitCheck(policy, check(policy, "alice").key(), 2, true, 1000);
		assertThat(result(decide(pair)).millisUntilFull()).isEqualTo(500);
		assertThat(decide(pair).waitMillis()).isEqualTo(500);
	}

	@Test
	void leakyBucketKeyExpiresWhenItsBacklogDrained() {
		setTime("2030-06-10T12:00:00Z");
		LimitCheck check = waiting("1/10s leaky", "alice", 30_000);
		decide(check);
		decide(check);
		assertThat(this.stores.redis().pttl(check.key())).isGreaterThan(10 * SECOND).isLessThanOrEqualTo(20 * SECOND);
		LimitCheck quick = check("1/50ms leaky", "bob", 1);
		decide(quick);
		await().atMost(Duration.ofSeconds(10)).until(() -> this.stores.redis().exists(quick.key()) == 0);
	}

	// every kind in one request, give-backs, inspection

	@Test
	void requestRefusedByOneKindTakesFromNoOther() {
		setTime("2030-06-10T12:00:00Z");
		LimitCheck fixed = check("5/1m fixed", "alice", 1);
		LimitCheck sliding = check("5/1m sliding", "alice", 1);
		LimitCheck leaky = check("1/1m leaky", "alice", 1);
		LimitCheck bucket = check("5/1m", "alice", 1);
		assertThat(decide(fixed, sliding, leaky, bucket).admitted()).isTrue();
		for (int i = 0; i < 3; i++) {
			StoreDecision refused = decide(fixed, sliding, leaky, bucket);
			assertThat(refused.admitted()).isFalse();
			assertThat(refused.results()).extracting(CheckResult::hadTokens).containsExactly(true, true, false, true);
			assertThat(refused.results()).extracting((result) -> result.bandwidths().get(0).remaining())
				.containsExactly(4L, 4L, 0L, 4L);
		}
		// the leaky bucket alone is refused, and took nothing; the others still hold 4
		StoreDecision others = decide(fixed, sliding, bucket);
		assertThat(others.results()).extracting((result) -> result.bandwidths().get(0).remaining())
			.containsExactly(3L, 3L, 3L);
	}

	@Test
	void requestRefusedInAnotherSlotTakesNothingFromWindowsAndLeakyBuckets() throws Exception {
		try (ScriptStores cluster = new ScriptStores("acrossSlots")) {
			setTime("2030-06-10T12:00:00Z");
			RedisScriptRateLimitStore bySlot = cluster.connected(RedisScriptRateLimitStore.DEFAULT_LEASE_TIME,
					this.time::get, this.time::get, Arrays::hashCode);
			LimitCheck fixed = cluster.check(cluster.policy("5/1m fixed"), "alice");
			LimitCheck sliding = cluster.check(cluster.policy("5/1m sliding"), "alice");
			LimitCheck leaky = cluster.check(cluster.policy("1/1m leaky"), "alice");
			LimitCheck spent = cluster.check(cluster.policy("1/1h"), "bob");
			bySlot.decide(List.of(spent));
			StoreDecision refused = bySlot.decide(List.of(fixed, sliding, leaky, spent));
			assertThat(refused.admitted()).isFalse();
			// as found: the slots that admitted gave back what they took
			assertThat(refused.results()).extracting((result) -> result.bandwidths().get(0).remaining())
				.containsExactly(5L, 5L, 1L, 0L);
			StoreDecision after = bySlot.decide(List.of(fixed, sliding, leaky));
			assertThat(after.admitted()).isTrue();
			assertThat(after.results()).extracting((result) -> result.bandwidths().get(0).remaining())
				.containsExactly(4L, 4L, 0L);
		}
	}

	@Test
	void givenBackCostsAreTakenAgain() {
		setTime("2030-06-10T12:00:00Z");
		LimitCheck fixed = check("1/1m fixed", "alice", 1);
		LimitCheck sliding = check("1/1m sliding", "alice", 1);
		LimitCheck leaky = check("1/1m leaky", "alice", 1);
		List<LimitCheck> all = List.of(fixed, sliding, leaky);
		assertThat(this.store.decide(all).admitted()).isTrue();
		for (LimitCheck check : all) {
			assertThat(decide(check).admitted()).isFalse();
		}
		this.store.giveBack(all);
		// sent without waiting for Redis
		await().atMost(Duration.ofSeconds(10)).until(() -> this.store.decide(all).admitted());
		for (LimitCheck check : all) {
			assertThat(decide(check).admitted()).isFalse();
		}
	}

	@Test
	void giveBacksNeverCountBelowZero() {
		setTime("2030-06-10T12:00:00Z");
		LimitCheck sliding = check("2/1m sliding", "alice", 1);
		LimitCheck leaky = waiting("2/1m leaky", "alice", 30_000);
		decide(sliding, leaky);
		this.store.giveBack(List.of(sliding, leaky, sliding, leaky, sliding, leaky));
		await().atMost(Duration.ofSeconds(10))
			.until(() -> result(this.store.inspect(List.of(sliding)).get(0)).remaining() == 2);
		StoreDecision after = decide(sliding, leaky);
		assertThat(after.waitMillis()).isZero();
		assertThat(after.results()).extracting((result) -> result.bandwidths().get(0).remaining())
			.containsExactly(1L, 0L);
		assertThat(decide(sliding, leaky).waitMillis()).isEqualTo(30 * SECOND);
	}

	@Test
	void inspectionReadsEveryKindWithoutTakingAnything() {
		setTime("2030-06-10T12:00:30Z");
		Policy policy = this.stores.policy("5/1m fixed, 5/1m sliding, 2/1m leaky");
		LimitCheck used = new LimitCheck(policy, check(policy, "alice").key(), 2, true);
		decide(used);
		LimitCheck unused = check(policy, "bob");
		for (int i = 0; i < 3; i++) {
			List<CheckResult> read = this.store.inspect(List.of(used, unused));
			assertThat(read.get(0).bandwidths()).containsExactly(new BandwidthResult(3, 0, 30 * SECOND, 0),
					new BandwidthResult(3, 0, 90 * SECOND, 0), new BandwidthResult(0, MINUTE, MINUTE, MINUTE));
			assertThat(read.get(1).bandwidths()).containsExactly(new BandwidthResult(5, 0, 0, 0),
					new BandwidthResult(5, 0, 0, 0), new BandwidthResult(1, 0, 0, 0));
		}
	}

	@Test
	void aLimitThatChangesKindStartsAfresh() {
		setTime("2030-06-10T12:00:00Z");
		// both under one key (store keys differ by kind): the script keeps the state of
		// each kind apart
		Policy fixed = this.stores.policy("2/1m fixed");
		Policy sliding = this.stores.policy("2/1m sliding");
		LimitCheck fixedCheck = new LimitCheck(fixed, check(fixed, "alice").key() + ":shared", 2, true);
		LimitCheck slidingCheck = new LimitCheck(sliding, fixedCheck.key(), 1, true);
		decide(fixedCheck);
		assertThat(result(decide(slidingCheck)).remaining()).isOne();
		assertThat(decide(fixedCheck).admitted()).isFalse();
	}

	private int admittedOf(LimitCheck check, int requests) {
		int admitted = 0;
		for (int i = 0; i < requests; i++) {
			admitted += decide(check).admitted() ? 1 : 0;
		}
		return admitted;
	}

	private void setTime(String instant) {
		this.time.set(Instant.parse(instant).toEpochMilli());
	}

	private void advance(long millis) {
		this.time.addAndGet(millis);
	}

	private LimitCheck check(String limit, String id, long cost) {
		Policy policy = this.stores.policy(limit);
		return new LimitCheck(policy, check(policy, id).key(), cost, true);
	}

	private LimitCheck check(Policy policy, String id) {
		return this.stores.check(policy, id);
	}

	private LimitCheck waiting(String limit, String id, long maxWaitMillis) {
		Policy policy = this.stores.policy(limit);
		return new LimitCheck(policy, check(policy, id).key(), 1, true, maxWaitMillis);
	}

	private StoreDecision decide(LimitCheck... checks) {
		return this.store.decide(List.of(checks));
	}

	private static BandwidthResult result(StoreDecision decision) {
		return result(decision.results().get(0));
	}

	private static BandwidthResult result(CheckResult result) {
		return result.bandwidths().get(0);
	}

}
