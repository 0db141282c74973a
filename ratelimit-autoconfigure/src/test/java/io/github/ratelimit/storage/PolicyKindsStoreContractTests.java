package io.github.ratelimit.storage;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.github.ratelimit.policy.ConcurrencyLimit;
import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.LimitParser;
import io.github.ratelimit.policy.Policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * What every store must do with calendar quotas, fixed and sliding windows, leaky
 * buckets, concurrency caps, waiting and observed checks, with the time set by the test.
 * The memory store runs it ({@code InMemoryPolicyKindsTests}); a subclass for the Redis
 * script store is expected too, so this class knows the storage SPI and the policy types
 * only.
 * <p>
 * Dates are in the future on purpose: a store that derives key expiry from its injected
 * clock keeps the keys alive while a test runs. Token-bucket waits are compared within a
 * millisecond, so a store may round its refill arithmetic; quota and window boundaries
 * are exact, and so are sliding windows and leaky buckets, whose integer arithmetic every
 * store follows ({@code SlidingWindow.Counts}, {@code LeakyBucket.Backlog}).
 */
public abstract class PolicyKindsStoreContractTests {

	/** The zone of the quotas: it has daylight-saving days of 23 and 25 hours. */
	protected static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

	private static final long HOUR = Duration.ofHours(1).toMillis();

	private static final long RETRY = ConcurrencyLimit.RETRY_MILLIS;

	private RateLimitStore store;

	private Instant now;

	/**
	 * A new store that reads the time last given to {@link #setTime}, for quotas (its
	 * wall clock) and token buckets alike. Called once per test, right after the first
	 * {@link #setTime}.
	 */
	protected abstract RateLimitStore newStore();

	/**
	 * Sets the time the store reads. Tests only move it forward after the store was
	 * created.
	 */
	protected abstract void setTime(Instant instant);

	private StoreKeys keys() {
		return new StoreKeys(storeKeyPrefix());
	}

	/**
	 * The namespace of store keys; a subclass against a shared server makes it unique per
	 * test.
	 */
	protected String storeKeyPrefix() {
		return "rl:";
	}

	// calendar quotas

	@Test
	void monthlyQuotaResetsExactlyAtTheMonthBoundaryInItsZone() {
		startAt("2030-10-31T23:59:59");
		Policy policy = policy("2/month");
		assertThat(decide(check(policy, "a", 2)).admitted()).isTrue();
		StoreDecision refused = decide(check(policy, "a", 1));
		assertThat(refused.admitted()).isFalse();
		// 31 October ends at midnight in Berlin, an hour before midnight UTC
		assertThat(result(refused, 0)).isEqualTo(new BandwidthResult(0, 1000, 1000, 1000));
		advance(Duration.ofMillis(999));
		assertThat(decide(check(policy, "a", 1)).admitted()).isFalse();
		advance(Duration.ofMillis(1));
		StoreDecision november = decide(check(policy, "a", 1));
		assertThat(november.admitted()).isTrue();
		// November has 30 days and no daylight-saving change
		assertThat(result(november, 0)).isEqualTo(new BandwidthResult(1, 0, 30 * 24 * HOUR, 0));
	}

	@Test
	void monthlyQuotaOfAMonthWithADaylightSavingChangeLastsItsRealLength() {
		startAt("2030-10-01T00:00:00");
		StoreDecision decision = decide(check(policy("5/month"), "a", 1));
		// 31 days and the hour that the end of summer time adds
		assertThat(result(decision, 0)).isEqualTo(new BandwidthResult(4, 0, 31 * 24 * HOUR + HOUR, 0));
	}

	@Test
	void dayQuotaOnTheDaySummerTimeStartsLasts23Hours() {
		startAt("2030-03-31T00:00:00");
		Policy policy = policy("1/day");
		assertThat(result(decide(check(policy, "a", 1)), 0)).isEqualTo(new BandwidthResult(0, 0, 23 * HOUR, 23 * HOUR));
		advance(Duration.ofMillis(23 * HOUR - 1));
		assertThat(result(decide(check(policy, "a", 1)), 0).millisUntilCost()).isEqualTo(1);
		advance(Duration.ofMillis(1));
		assertThat(decide(check(policy, "a", 1)).admitted()).isTrue();
	}

	@Test
	void dayQuotaOnTheDaySummerTimeEndsLasts25Hours() {
		startAt("2030-10-27T00:00:00");
		Policy policy = policy("1/day");
		assertThat(result(decide(check(policy, "a", 1)), 0).millisUntilFull()).isEqualTo(25 * HOUR);
		// 24 hours later it is 23:00 of the same calendar day
		advance(Duration.ofMillis(24 * HOUR));
		StoreDecision refused = decide(check(policy, "a", 1));
		assertThat(refused.admitted()).isFalse();
		assertThat(result(refused, 0).millisUntilCost()).isEqualTo(HOUR);
		advance(Duration.ofMillis(HOUR));
		assertThat(decide(check(policy, "a", 1)).admitted()).isTrue();
	}

	@Test
	void quotaReportsWhatIsLeftAndTheWaitUntilItsBoundary() {
		startAt("2030-06-10T18:00:00");
		Policy policy = policy("5/day");
		long untilMidnight = 6 * HOUR;
		assertThat(result(decide(check(policy, "a", 2)), 0)).isEqualTo(new BandwidthResult(3, 0, untilMidnight, 0));
		// one left, less than the cost: the next cost is there at midnight
		assertThat(result(decide(check(policy, "a", 2)), 0))
			.isEqualTo(new BandwidthResult(1, 0, untilMidnight, untilMidnight));
		StoreDecision refused = decide(check(policy, "a", 2));
		assertThat(refused.admitted()).isFalse();
		assertThat(refused.results().get(0).hadTokens()).isFalse();
		assertThat(result(refused, 0)).isEqualTo(new BandwidthResult(1, untilMidnight, untilMidnight, untilMidnight));
		assertThat(decide(check(policy, "a", 1)).admitted()).isTrue();
	}

	@Test
	void untouchedQuotaIsFull() {
		startAt("2030-06-10T18:00:00");
		StoreDecision decision = decide(observed(policy("5/day"), "a", 6));
		assertThat(decision.admitted()).isTrue();
		assertThat(result(decision, 0)).isEqualTo(new BandwidthResult(5, 6 * HOUR, 0, 6 * HOUR));
	}

	// no drain

	@Test
	void requestRefusedByAQuotaTakesNothingFromATokenBucket() {
		startAt("2030-06-10T12:00:00");
		LimitCheck bucket = check(policy("10/1m"), "a", 1);
		LimitCheck quota = check(policy("1/day"), "a", 1);
		assertThat(decide(bucket, quota).admitted()).isTrue();
		for (int i = 0; i < 3; i++) {
			StoreDecision refused = decide(bucket, quota);
			assertThat(refused.admitted()).isFalse();
			assertThat(refused.results().get(0).hadTokens()).isTrue();
			assertThat(result(refused, 0).remaining()).isEqualTo(9);
		}
		assertThat(result(decide(bucket), 0).remaining()).isEqualTo(8);
	}

	@Test
	void requestRefusedByATokenBucketTakesNothingFromAQuota() {
		startAt("2030-06-10T12:00:00");
		LimitCheck bucket = check(policy("1/1h"), "a", 1);
		LimitCheck quota = check(policy("10/day"), "a", 1);
		assertThat(decide(quota, bucket).admitted()).isTrue();
		for (int i = 0; i < 3; i++) {
			StoreDecision refused = decide(quota, bucket);
			assertThat(refused.admitted()).isFalse();
			assertThat(result(refused, 0)).isEqualTo(new BandwidthResult(9, 0, 12 * HOUR, 0));
		}
		assertThat(result(decide(quota), 0).remaining()).isEqualTo(8);
	}

	@Test
	void limitOfBothKindsTakesFromNeitherWhenOneIsShort() {
		startAt("2030-06-10T12:00:00");
		Policy policy = policy("10/1m, 1/day");
		assertThat(decide(check(policy, "a", 1)).admitted()).isTrue();
		for (int i = 0; i < 3; i++) {
			StoreDecision refused = decide(check(policy, "a", 1));
			assertThat(refused.admitted()).isFalse();
			assertThat(refused.results().get(0).hadTokens()).isFalse();
			// the token bucket had the cost and keeps it: no refusal takes from it
			assertThat(result(refused, 0)).isEqualTo(new BandwidthResult(9, 0, 6000, 0));
			assertThat(result(refused, 0, 1).millisUntilCost()).isEqualTo(12 * HOUR);
		}
	}

	// concurrency

	@Test
	void admitsAsManyRequestsAsPermitsAndRefusesTheNext() {
		startAt("2030-06-10T12:00:00");
		Policy policy = policy("2 concurrent");
		StoreDecision first = decide(check(policy, "a", 1));
		assertThat(first.admitted()).isTrue();
		assertThat(result(first, 0)).isEqualTo(new BandwidthResult(1, 0, RETRY, 0));
		// a permit whatever the cost
		StoreDecision second = decide(check(policy, "a", 5));
		assertThat(second.admitted()).isTrue();
		assertThat(result(second, 0)).isEqualTo(new BandwidthResult(0, 0, RETRY, RETRY));
		StoreDecision third = decide(check(policy, "a", 1));
		assertThat(third.admitted()).isFalse();
		assertThat(third.results().get(0).hadTokens()).isFalse();
		assertThat(result(third, 0)).isEqualTo(new BandwidthResult(0, RETRY, RETRY, RETRY));
	}

	@Test
	void releaseFreesExactlyOnePermitEvenWhenCalledTwice() {
		startAt("2030-06-10T12:00:00");
		Policy policy = policy("2 concurrent");
		StoreDecision first = decide(check(policy, "a", 1));
		decide(check(policy, "a", 1));
		first.permits().release();
		first.permits().release();
		StoreDecision next = decide(check(policy, "a", 1));
		assertThat(next.admitted()).isTrue();
		assertThat(result(next, 0).remaining()).isZero();
		assertThat(decide(check(policy, "a", 1)).admitted()).isFalse();
	}

	@Test
	void releasingEveryPermitLeavesTheCapFull() {
		startAt("2030-06-10T12:00:00");
		Policy policy = policy("2 concurrent");
		decide(check(policy, "a", 1)).permits().release();
		decide(check(policy, "a", 1)).permits().release();
		StoreDecision decision = decide(observed(policy, "a", 1));
		assertThat(result(decision, 0)).isEqualTo(new BandwidthResult(1, 0, RETRY, 0));
		decision.permits().release();
		assertThat(result(decide(observed(policy, "a", 1)), 0).remaining()).isEqualTo(1);
	}

	@Test
	void refusedRequestHoldsNoPermit() {
		startAt("2030-06-10T12:00:00");
		Policy concurrency = policy("1 concurrent");
		LimitCheck spent = check(policy("1/1h"), "a", 1);
		decide(spent);
		// the permit was free, but the token bucket refuses: the permit goes back
		StoreDecision refused = decide(check(concurrency, "a", 1), spent);
		assertThat(refused.admitted()).isFalse();
		assertThat(refused.results().get(0).hadTokens()).isTrue();
		refused.permits().release();
		StoreDecision holder = decide(check(concurrency, "a", 1));
		assertThat(holder.admitted()).isTrue();
		StoreDecision full = decide(check(concurrency, "a", 1));
		assertThat(full.admitted()).isFalse();
		// releasing a refusal gives back nothing it did not take
		full.permits().release();
		assertThat(decide(check(concurrency, "a", 1)).admitted()).isFalse();
		holder.permits().release();
		assertThat(decide(check(concurrency, "a", 1)).admitted()).isTrue();
	}

	@Test
	void concurrencyCapThatIsNotEnforcedNeverRefuses() {
		startAt("2030-06-10T12:00:00");
		Policy policy = policy("1 concurrent");
		StoreDecision first = decide(observed(policy, "a", 1));
		assertThat(first.admitted()).isTrue();
		assertThat(first.results().get(0).hadTokens()).isTrue();
		StoreDecision second = decide(observed(policy, "a", 1));
		assertThat(second.admitted()).isTrue();
		assertThat(second.results().get(0).hadTokens()).isFalse();
		assertThat(result(second, 0)).isEqualTo(new BandwidthResult(0, RETRY, RETRY, RETRY));
		// the second took nothing, so its release frees nothing; the first's frees its
		// permit
		second.permits().release();
		assertThat(decide(check(policy, "a", 1)).admitted()).isFalse();
		first.permits().release();
		assertThat(decide(check(policy, "a", 1)).admitted()).isTrue();
	}

	@Test
	void permitsOfEveryCheckAreReleasedTogether() {
		startAt("2030-06-10T12:00:00");
		Policy user = policy("1 concurrent");
		Policy org = policy("10/1h, 2 concurrent");
		StoreDecision decision = decide(check(user, "alice", 1), check(org, "acme", 1));
		assertThat(result(decision, 1, 1).remaining()).isEqualTo(1);
		decision.permits().release();
		StoreDecision after = decide(check(user, "alice", 1), check(org, "acme", 1));
		assertThat(after.admitted()).isTrue();
		assertThat(result(after, 1, 0).remaining()).isEqualTo(8);
		assertThat(result(after, 1, 1).remaining()).isEqualTo(1);
	}

	// waiting

	@Test
	void requestWithinItsWaitIsAdmittedAndTheNextWaitsLonger() {
		startAt("2030-06-10T12:00:00");
		Policy policy = policy("1/1s");
		assertThat(decide(waiting(policy, "a", 2500)).waitMillis()).isZero();
		StoreDecision second = decide(waiting(policy, "a", 2500));
		assertThat(second.admitted()).isTrue();
		assertThat(second.waitMillis()).isCloseTo(1000, within(1L));
		assertThat(second.results().get(0).hadTokens()).isTrue();
		assertThat(result(second, 0).remaining()).isZero();
		assertThat(result(second, 0).millisUntilCost()).isCloseTo(1000, within(1L));
		// the bucket is in debt for the second request: the third waits for both refills
		StoreDecision third = decide(waiting(policy, "a", 2500));
		assertThat(third.admitted()).isTrue();
		assertThat(third.waitMillis()).isCloseTo(2000, within(1L));
	}

	@Test
	void requestBeyondItsWaitIsRefusedAtOnceAndTakesNothing() {
		startAt("2030-06-10T12:00:00");
		Policy policy = policy("1/1s");
		decide(waiting(policy, "a", 1500));
		assertThat(decide(waiting(policy, "a", 1500)).waitMillis()).isCloseTo(1000, within(1L));
		StoreDecision refused = decide(waiting(policy, "a", 1500));
		assertThat(refused.admitted()).isFalse();
		assertThat(refused.waitMillis()).isZero();
		assertThat(refused.results().get(0).hadTokens()).isFalse();
		assertThat(result(refused, 0).millisUntilCost()).isCloseTo(2000, within(1L));
		// had the refusal reserved anything, this would wait 2000 ms
		advance(Duration.ofMillis(1000));
		assertThat(decide(waiting(policy, "a", 1500)).waitMillis()).isCloseTo(1000, within(1L));
	}

	@Test
	void requestWaitsForTheSlowestOfItsBuckets() {
		startAt("2030-06-10T12:00:00");
		LimitCheck fast = waiting(policy("1/1s"), "a", 5000);
		LimitCheck slow = waiting(policy("1/2s"), "a", 5000);
		decide(fast, slow);
		StoreDecision decision = decide(fast, slow);
		assertThat(decision.admitted()).isTrue();
		assertThat(decision.waitMillis()).isCloseTo(2000, within(1L));
	}

	@Test
	void quotasAndPermitsNeverWait() {
		startAt("2030-06-10T12:00:00");
		LimitCheck quota = waiting(policy("1/day"), "a", 60_000);
		decide(quota);
		StoreDecision refused = decide(quota);
		assertThat(refused.admitted()).isFalse();
		assertThat(refused.waitMillis()).isZero();
		LimitCheck concurrency = waiting(policy("1 concurrent"), "a", 60_000);
		decide(concurrency);
		assertThat(decide(concurrency).admitted()).isFalse();
	}

	@Test
	void requestRefusedByAQuotaReservesNothingInATokenBucket() {
		startAt("2030-06-10T12:00:00");
		LimitCheck bucket = waiting(policy("1/1s"), "a", 5000);
		LimitCheck quota = check(policy("2/day"), "a", 1);
		decide(bucket, quota);
		assertThat(decide(bucket, quota).waitMillis()).isCloseTo(1000, within(1L));
		StoreDecision refused = decide(bucket, quota);
		assertThat(refused.admitted()).isFalse();
		assertThat(refused.waitMillis()).isZero();
		// the bucket holds the debt of the admitted second request only
		assertThat(decide(bucket).waitMillis()).isCloseTo(2000, within(1L));
	}

	@Test
	void checkThatIsNotEnforcedNeverWaits() {
		startAt("2030-06-10T12:00:00");
		Policy policy = policy("1/1s");
		decide(check(policy, "a", 1));
		StoreDecision decision = decide(new LimitCheck(policy, keys().key(policy, "a"), 1, false, 5000));
		assertThat(decision.admitted()).isTrue();
		assertThat(decision.waitMillis()).isZero();
		assertThat(decision.results().get(0).hadTokens()).isFalse();
		advance(Duration.ofMillis(1000));
		assertThat(decide(check(policy, "a", 1)).admitted()).isTrue();
	}

	// observed checks

	@Test
	void observedChecksNeverRefuseAndTakeOnlyWhatTheyHave() {
		startAt("2030-06-10T12:00:00");
		LimitCheck quota = observed(policy("1/day"), "a", 1);
		LimitCheck bucket = observed(policy("1/1h"), "a", 1);
		StoreDecision first = decide(quota, bucket);
		assertThat(first.results()).allMatch(CheckResult::hadTokens);
		StoreDecision second = decide(quota, bucket);
		assertThat(second.admitted()).isTrue();
		assertThat(second.results()).noneMatch(CheckResult::hadTokens);
		assertThat(result(second, 0)).isEqualTo(new BandwidthResult(0, 12 * HOUR, 12 * HOUR, 12 * HOUR));
		assertThat(result(second, 1).remaining()).isZero();
	}

	@Test
	void observedChecksTakeNothingFromARefusedRequest() {
		startAt("2030-06-10T12:00:00");
		LimitCheck quota = observed(policy("5/day"), "a", 1);
		LimitCheck permit = observed(policy("1 concurrent"), "a", 1);
		LimitCheck spent = check(policy("1/1h"), "a", 1);
		decide(spent);
		StoreDecision refused = decide(quota, permit, spent);
		assertThat(refused.admitted()).isFalse();
		assertThat(refused.results().get(0).hadTokens()).isTrue();
		assertThat(refused.results().get(1).hadTokens()).isTrue();
		StoreDecision next = decide(quota, permit);
		assertThat(result(next, 0).remaining()).isEqualTo(4);
		assertThat(next.results().get(1).hadTokens()).isTrue();
	}

	// give-backs (limits that count only some responses)

	@Test
	void aGivenBackCostIsTakenAgainFromTokenBucketsAndQuotas() {
		startAt("2030-03-01T10:00:00");
		Policy limit = policy("3/1h, 10/day");
		for (int i = 0; i < 3; i++) {
			assertThat(decide(check(limit, "a", 1)).admitted()).isTrue();
		}
		assertThat(decide(check(limit, "a", 1)).admitted()).isFalse();
		this.store.giveBack(List.of(check(limit, "a", 1)));
		StoreDecision again = decide(check(limit, "a", 1));
		assertThat(again.admitted()).isTrue();
		assertThat(again.results().get(0).bandwidths()).extracting(BandwidthResult::remaining).containsExactly(0L, 7L);
		assertThat(decide(check(limit, "a", 1)).admitted()).isFalse();
	}

	@Test
	void giveBacksNeverFillABucketAboveItsCapacityNorAQuotaBelowZero() {
		startAt("2030-03-01T10:00:00");
		Policy limit = policy("3/1h, 10/day");
		decide(check(limit, "a", 2));
		// more given back than was ever taken
		this.store.giveBack(List.of(check(limit, "a", 2), check(limit, "a", 2), check(limit, "a", 2)));
		StoreDecision after = decide(check(limit, "a", 1));
		assertThat(after.results().get(0).bandwidths()).extracting(BandwidthResult::remaining).containsExactly(2L, 9L);
	}

	@Test
	void aGiveBackToABucketThatIsGoneLeavesItFull() {
		startAt("2030-03-01T10:00:00");
		Policy limit = policy("3/1h, 10/day");
		this.store.giveBack(List.of(check(limit, "never-used", 1)));
		decide(check(limit, "reset", 3));
		this.store.reset(List.of(check(limit, "reset", 1)));
		this.store.giveBack(List.of(check(limit, "reset", 3)));
		for (String id : List.of("never-used", "reset")) {
			StoreDecision first = decide(check(limit, id, 1));
			assertThat(first.results().get(0).bandwidths()).as(id)
				.extracting(BandwidthResult::remaining)
				.containsExactly(2L, 9L);
		}
	}

	@Test
	void aGiveBackLeavesConcurrencyPermitsToTheRequestsThatHoldThem() {
		startAt("2030-03-01T10:00:00");
		Policy limit = policy("5/1h, 1 concurrent");
		StoreDecision held = decide(check(limit, "a", 1));
		assertThat(held.admitted()).isTrue();
		this.store.giveBack(List.of(check(limit, "a", 1)));
		// the token is back, the permit is still held
		assertThat(decide(check(limit, "a", 1)).admitted()).isFalse();
		held.permits().release();
		StoreDecision next = decide(check(limit, "a", 1));
		assertThat(next.admitted()).isTrue();
		assertThat(result(next, 0).remaining()).isEqualTo(4);
		next.permits().release();
	}

	@Test
	void aGiveBackOfSeveralBucketsReachesEachOfThem() {
		startAt("2030-03-01T10:00:00");
		Policy user = policy("1/1h");
		Policy month = policy("1/month");
		assertThat(decide(check(user, "u", 1), check(month, "o", 1)).admitted()).isTrue();
		assertThat(decide(check(user, "u", 1)).admitted()).isFalse();
		assertThat(decide(check(month, "o", 1)).admitted()).isFalse();
		this.store.giveBack(List.of(check(user, "u", 1), check(month, "o", 1)));
		assertThat(decide(check(user, "u", 1), check(month, "o", 1)).admitted()).isTrue();
	}

	// fixed windows: counted like calendar quotas, windows aligned on the epoch

	@Test
	void fixedWindowAdmitsItsQuotaAndRefusesUntilTheWindowEnds() {
		startAt("2030-06-10T12:00:20");
		Policy policy = policy("3/1m fixed");
		long untilEnd = 40_000;
		assertThat(result(decide(check(policy, "a", 1)), 0)).isEqualTo(new BandwidthResult(2, 0, untilEnd, 0));
		assertThat(result(decide(check(policy, "a", 1)), 0)).isEqualTo(new BandwidthResult(1, 0, untilEnd, 0));
		assertThat(result(decide(check(policy, "a", 1)), 0)).isEqualTo(new BandwidthResult(0, 0, untilEnd, untilEnd));
		StoreDecision refused = decide(check(policy, "a", 1));
		assertThat(refused.admitted()).isFalse();
		assertThat(refused.results().get(0).hadTokens()).isFalse();
		assertThat(result(refused, 0)).isEqualTo(new BandwidthResult(0, untilEnd, untilEnd, untilEnd));
		advance(Duration.ofMillis(untilEnd - 1));
		assertThat(result(decide(check(policy, "a", 1)), 0)).isEqualTo(new BandwidthResult(0, 1, 1, 1));
		advance(Duration.ofMillis(1));
		StoreDecision next = decide(check(policy, "a", 1));
		assertThat(next.admitted()).isTrue();
		assertThat(result(next, 0)).isEqualTo(new BandwidthResult(2, 0, 60_000, 0));
	}

	@Test
	void fixedWindowAdmitsTwiceItsQuotaAroundABoundary() {
		startAt("2030-06-10T12:00:59.999");
		Policy policy = policy("3/1m fixed");
		int admitted = 0;
		for (int i = 0; i < 4; i++) {
			admitted += decide(check(policy, "a", 1)).admitted() ? 1 : 0;
		}
		assertThat(admitted).isEqualTo(3);
		advance(Duration.ofMillis(1));
		for (int i = 0; i < 4; i++) {
			admitted += decide(check(policy, "a", 1)).admitted() ? 1 : 0;
		}
		// the weakness the kind is known for: 2N within 2 ms
		assertThat(admitted).isEqualTo(6);
	}

	@Test
	void fixedWindowCountsACostAsThatManyRequests() {
		startAt("2030-06-10T12:00:00");
		Policy policy = policy("5/1m fixed");
		assertThat(result(decide(check(policy, "a", 3)), 0)).isEqualTo(new BandwidthResult(2, 0, 60_000, 60_000));
		StoreDecision refused = decide(check(policy, "a", 3));
		assertThat(refused.admitted()).isFalse();
		assertThat(result(refused, 0)).isEqualTo(new BandwidthResult(2, 60_000, 60_000, 60_000));
		assertThat(decide(check(policy, "a", 2)).admitted()).isTrue();
	}

	@Test
	void aGivenBackRequestCountsNoMoreInAFixedWindow() {
		startAt("2030-06-10T12:00:30");
		Policy policy = policy("3/1m fixed");
		decide(check(policy, "a", 3));
		assertThat(decide(check(policy, "a", 1)).admitted()).isFalse();
		this.store.giveBack(List.of(check(policy, "a", 1)));
		assertThat(result(decide(check(policy, "a", 1)), 0).remaining()).isZero();
		assertThat(decide(check(policy, "a", 1)).admitted()).isFalse();
		// more given back than was counted: the count stops at zero
		this.store.giveBack(List.of(check(policy, "a", 5)));
		assertThat(result(decide(check(policy, "a", 1)), 0).remaining()).isEqualTo(2);
	}

	// sliding windows: previous x (period - elapsed) / period + current, in integers

	@Test
	void slidingWindowAdmitsItsQuotaAndRefusesUntilThePreviousWindowHasSlidOutEnough() {
		startAt("2030-06-10T12:00:30");
		Policy policy = policy("10/1m sliding");
		// all counted in the window that started at 12:00: out of the sliding window at
		// 12:02
		for (int i = 1; i < 10; i++) {
			assertThat(result(decide(check(policy, "a", 1)), 0)).isEqualTo(new BandwidthResult(10 - i, 0, 90_000, 0));
		}
		// the 11th fits once the previous window weighs 9/10 at most: at 12:01:06
		assertThat(result(decide(check(policy, "a", 1)), 0)).isEqualTo(new BandwidthResult(0, 0, 90_000, 36_000));
		StoreDecision refused = decide(check(policy, "a", 1));
		assertThat(refused.admitted()).isFalse();
		assertThat(refused.results().get(0).hadTokens()).isFalse();
		assertThat(result(refused, 0)).isEqualTo(new BandwidthResult(0, 36_000, 90_000, 36_000));
		// the boundary frees nothing: the previous window still weighs fully
		advance(Duration.ofSeconds(30));
		assertThat(result(decide(check(policy, "a", 1)), 0)).isEqualTo(new BandwidthResult(0, 6000, 60_000, 6000));
		advance(Duration.ofMillis(5999));
		assertThat(result(decide(check(policy, "a", 1)), 0)).isEqualTo(new BandwidthResult(0, 1, 54_001, 1));
		advance(Duration.ofMillis(1));
		StoreDecision next = decide(check(policy, "a", 1));
		assertThat(next.admitted()).isTrue();
		// then one every 6 s, the window's rate
		assertThat(result(next, 0)).isEqualTo(new BandwidthResult(0, 0, 114_000, 6000));
	}

	@Test
	void slidingWindowLetsNoSecondQuotaThroughAroundABoundary() {
		startAt("2030-06-10T12:00:59.999");
		Policy policy = policy("10/1m sliding");
		int admitted = 0;
		for (int i = 0; i < 11; i++) {
			admitted += decide(check(policy, "a", 1)).admitted() ? 1 : 0;
		}
		assertThat(admitted).isEqualTo(10);
		advance(Duration.ofMillis(1));
		for (int i = 0; i < 11; i++) {
			admitted += decide(check(policy, "a", 1)).admitted() ? 1 : 0;
		}
		assertThat(admitted).isEqualTo(10);
	}

	@Test
	void slidingWindowAdmitsOnlyTheShareThePreviousWindowLeaves() {
		startAt("2030-06-10T12:00:50");
		Policy policy = policy("10/1m sliding");
		assertThat(decide(check(policy, "a", 10)).admitted()).isTrue();
		assertThat(result(decide(check(policy, "a", 1)), 0)).isEqualTo(new BandwidthResult(0, 16_000, 70_000, 16_000));
		// at 12:01:10 the previous window weighs 50/60: room for one
		advance(Duration.ofSeconds(20));
		assertThat(result(decide(check(policy, "a", 1)), 0)).isEqualTo(new BandwidthResult(0, 0, 110_000, 2000));
		assertThat(result(decide(check(policy, "a", 1)), 0)).isEqualTo(new BandwidthResult(0, 2000, 110_000, 2000));
		// at 12:01:30 it weighs half: 10 x 1/2 + 1 counted, 4 left
		advance(Duration.ofSeconds(20));
		for (int i = 1; i < 4; i++) {
			assertThat(result(decide(check(policy, "a", 1)), 0)).isEqualTo(new BandwidthResult(4 - i, 0, 90_000, 0));
		}
		assertThat(result(decide(check(policy, "a", 1)), 0)).isEqualTo(new BandwidthResult(0, 0, 90_000, 6000));
		assertThat(decide(check(policy, "a", 1)).admitted()).isFalse();
		// 15 admitted from 12:00:50 to 12:01:30: quota x (1 + 1/2) in the minute that
		// ends half-way into a window, the most the approximation lets through
		advance(Duration.ofSeconds(30));
		// at 12:02:00 the window of 12:01 (5 counted) is the previous one
		assertThat(result(decide(check(policy, "a", 1)), 0)).isEqualTo(new BandwidthResult(4, 0, 120_000, 0));
		advance(Duration.ofSeconds(120));
		// two windows later nothing counts
		assertThat(result(decide(check(policy, "a", 1)), 0)).isEqualTo(new BandwidthResult(9, 0, 120_000, 0));
	}

	@Test
	void slidingWindowCountsACostAsThatManyRequests() {
		startAt("2030-06-10T12:00:00");
		Policy policy = policy("10/1m sliding");
		decide(check(policy, "a", 10));
		advance(Duration.ofSeconds(90));
		// 12:01:30: 10 x 1/2 counted, 5 left
		assertThat(result(decide(check(policy, "a", 4)), 0)).isEqualTo(new BandwidthResult(1, 0, 90_000, 18_000));
		StoreDecision refused = decide(check(policy, "a", 4));
		assertThat(refused.admitted()).isFalse();
		// fits once 10 x (60 - e) / 60 + 8 <= 10: at e = 48 s
		assertThat(result(refused, 0)).isEqualTo(new BandwidthResult(1, 18_000, 90_000, 18_000));
		assertThat(decide(check(policy, "a", 1)).admitted()).isTrue();
	}

	@Test
	void aGivenBackRequestCountsNoMoreInASlidingWindow() {
		startAt("2030-06-10T12:00:30");
		Policy policy = policy("10/1m sliding");
		decide(check(policy, "a", 10));
		assertThat(decide(check(policy, "a", 1)).admitted()).isFalse();
		this.store.giveBack(List.of(check(policy, "a", 1)));
		assertThat(result(decide(check(policy, "a", 1)), 0).remaining()).isZero();
		assertThat(decide(check(policy, "a", 1)).admitted()).isFalse();
		// 12:01:10: the previous window weighs 50/60, one fits
		advance(Duration.ofSeconds(40));
		assertThat(decide(check(policy, "a", 1)).admitted()).isTrue();
		// a give-back takes from the current window's count only, never below zero: the
		// requests counted in the previous window stay counted
		this.store.giveBack(List.of(check(policy, "a", 2)));
		assertThat(decide(check(policy, "a", 1)).admitted()).isTrue();
		assertThat(decide(check(policy, "a", 1)).admitted()).isFalse();
	}

	@Test
	void windowsNeverWait() {
		startAt("2030-06-10T12:00:00");
		for (String limit : List.of("1/1m fixed", "1/1m sliding")) {
			LimitCheck window = waiting(policy(limit), "a", 60_000);
			assertThat(decide(window).admitted()).as(limit).isTrue();
			StoreDecision refused = decide(window);
			assertThat(refused.admitted()).as(limit).isFalse();
			assertThat(refused.waitMillis()).as(limit).isZero();
		}
	}

	// leaky buckets: one slot every period / rate, queued within the check's wait

	@Test
	void leakyBucketWithoutAWaitAdmitsOneAndRefusesUntilTheNextSlot() {
		startAt("2030-06-10T12:00:00");
		Policy policy = policy("10/1s leaky");
		StoreDecision first = decide(check(policy, "a", 1));
		assertThat(first.admitted()).isTrue();
		assertThat(first.waitMillis()).isZero();
		assertThat(result(first, 0)).isEqualTo(new BandwidthResult(0, 0, 100, 100));
		for (int i = 0; i < 3; i++) {
			StoreDecision refused = decide(check(policy, "a", 1));
			assertThat(refused.admitted()).isFalse();
			assertThat(refused.results().get(0).hadTokens()).isFalse();
			assertThat(result(refused, 0)).isEqualTo(new BandwidthResult(0, 100, 100, 100));
		}
		advance(Duration.ofMillis(99));
		assertThat(result(decide(check(policy, "a", 1)), 0)).isEqualTo(new BandwidthResult(0, 1, 1, 1));
		advance(Duration.ofMillis(1));
		StoreDecision next = decide(check(policy, "a", 1));
		assertThat(next.admitted()).isTrue();
		assertThat(result(next, 0)).isEqualTo(new BandwidthResult(0, 0, 100, 100));
		// a drained bucket lets one through at once, never a burst
		advance(Duration.ofSeconds(10));
		assertThat(decide(check(policy, "a", 1)).admitted()).isTrue();
		assertThat(decide(check(policy, "a", 1)).admitted()).isFalse();
	}

	@Test
	void leakyBucketQueuesRequestsForTheSlotsWithinTheirWait() {
		startAt("2030-06-10T12:00:00");
		Policy policy = policy("10/1s leaky");
		// 1 + floor(350 / 100) admitted, each waiting for its slot
		for (int k = 0; k < 4; k++) {
			StoreDecision queued = decide(waiting(policy, "a", 350));
			assertThat(queued.admitted()).isTrue();
			assertThat(queued.waitMillis()).isEqualTo(k * 100);
			assertThat(queued.results().get(0).hadTokens()).isTrue();
			assertThat(result(queued, 0)).isEqualTo(new BandwidthResult(0, k * 100, (k + 1) * 100, (k + 1) * 100));
		}
		StoreDecision refused = decide(waiting(policy, "a", 350));
		assertThat(refused.admitted()).isFalse();
		assertThat(refused.waitMillis()).isZero();
		assertThat(refused.results().get(0).hadTokens()).isFalse();
		assertThat(result(refused, 0)).isEqualTo(new BandwidthResult(0, 400, 400, 400));
		// had the refusal queued anything, this would wait 400 ms
		advance(Duration.ofMillis(100));
		assertThat(decide(waiting(policy, "a", 350)).waitMillis()).isEqualTo(300);
	}

	@Test
	void leakyBucketSlotsOfAFractionalLengthAddUpExactly() {
		startAt("2030-06-10T12:00:00");
		Policy policy = policy("3/1s leaky");
		// a slot is 333 1/3 ms: waits round up, the queue does not drift
		for (long wait : List.of(0L, 334L, 667L, 1000L)) {
			StoreDecision queued = decide(waiting(policy, "a", 1000));
			assertThat(queued.admitted()).isTrue();
			assertThat(queued.waitMillis()).isEqualTo(wait);
		}
		StoreDecision refused = decide(waiting(policy, "a", 1000));
		assertThat(refused.admitted()).isFalse();
		assertThat(result(refused, 0)).isEqualTo(new BandwidthResult(0, 1334, 1334, 1334));
		// 334 ms drain 1002 of the 4000 thirds of a ms queued: 999 1/3 ms left
		advance(Duration.ofMillis(334));
		assertThat(decide(waiting(policy, "a", 1000)).waitMillis()).isEqualTo(1000);
		// the slot after it is at 1666 2/3 ms from the start
		advance(Duration.ofMillis(1332));
		StoreDecision lastSlot = decide(check(policy, "a", 1));
		assertThat(lastSlot.admitted()).isFalse();
		assertThat(result(lastSlot, 0).millisUntilCost()).isEqualTo(1);
		advance(Duration.ofMillis(1));
		assertThat(decide(check(policy, "a", 1)).admitted()).isTrue();
	}

	@Test
	void leakyBucketRequestOfCostCTakesCSlots() {
		startAt("2030-06-10T12:00:00");
		Policy policy = policy("10/1s leaky");
		assertThat(result(decide(check(policy, "a", 3)), 0)).isEqualTo(new BandwidthResult(0, 0, 300, 300));
		assertThat(result(decide(check(policy, "a", 1)), 0)).isEqualTo(new BandwidthResult(0, 300, 300, 300));
		advance(Duration.ofMillis(50));
		StoreDecision queued = decide(new LimitCheck(policy, keys().key(policy, "a"), 2, true, 250));
		assertThat(queued.admitted()).isTrue();
		assertThat(queued.waitMillis()).isEqualTo(250);
		assertThat(result(queued, 0)).isEqualTo(new BandwidthResult(0, 250, 450, 450));
	}

	@Test
	void leakyBucketRefusedByAnotherCheckQueuesNothing() {
		startAt("2030-06-10T12:00:00");
		LimitCheck leaky = waiting(policy("1/1s leaky"), "a", 5000);
		LimitCheck quota = check(policy("2/day"), "a", 1);
		assertThat(decide(leaky, quota).waitMillis()).isZero();
		assertThat(decide(leaky, quota).waitMillis()).isEqualTo(1000);
		StoreDecision refused = decide(leaky, quota);
		assertThat(refused.admitted()).isFalse();
		assertThat(refused.waitMillis()).isZero();
		assertThat(refused.results().get(0).hadTokens()).isTrue();
		// the bucket holds the slots of the two admitted requests only
		assertThat(decide(leaky).waitMillis()).isEqualTo(2000);
	}

	@Test
	void requestWaitsForTheSlowestOfItsBucketsAndLeakyBuckets() {
		startAt("2030-06-10T12:00:00");
		LimitCheck leaky = waiting(policy("1/1s leaky"), "a", 5000);
		LimitCheck slow = waiting(policy("1/2s"), "a", 5000);
		decide(leaky, slow);
		StoreDecision decision = decide(leaky, slow);
		assertThat(decision.admitted()).isTrue();
		assertThat(decision.waitMillis()).isCloseTo(2000, within(1L));
		LimitCheck fast = waiting(policy("1/1s"), "b", 5000);
		LimitCheck slowLeaky = waiting(policy("1/3s leaky"), "b", 5000);
		decide(fast, slowLeaky);
		assertThat(decide(fast, slowLeaky).waitMillis()).isEqualTo(3000);
	}

	@Test
	void observedLeakyBucketNeverRefusesNorQueues() {
		startAt("2030-06-10T12:00:00");
		Policy policy = policy("10/1s leaky");
		StoreDecision first = decide(observed(policy, "a", 1));
		assertThat(first.results().get(0).hadTokens()).isTrue();
		StoreDecision second = decide(new LimitCheck(policy, keys().key(policy, "a"), 1, false, 5000));
		assertThat(second.admitted()).isTrue();
		assertThat(second.waitMillis()).isZero();
		assertThat(second.results().get(0).hadTokens()).isFalse();
		assertThat(result(second, 0)).isEqualTo(new BandwidthResult(0, 100, 100, 100));
		// only the first took a slot
		advance(Duration.ofMillis(100));
		assertThat(decide(check(policy, "a", 1)).admitted()).isTrue();
	}

	@Test
	void aGivenBackRequestFreesItsSlotsInALeakyBucket() {
		startAt("2030-06-10T12:00:00");
		Policy policy = policy("10/1s leaky");
		decide(check(policy, "a", 1));
		assertThat(decide(check(policy, "a", 1)).admitted()).isFalse();
		this.store.giveBack(List.of(check(policy, "a", 1)));
		assertThat(decide(check(policy, "a", 1)).admitted()).isTrue();
		// more given back than queued: the bucket is drained, no credit
		this.store.giveBack(List.of(check(policy, "a", 3)));
		assertThat(decide(check(policy, "a", 1)).admitted()).isTrue();
		assertThat(result(decide(check(policy, "a", 1)), 0).millisUntilCost()).isEqualTo(100);
	}

	// the kinds together

	@Test
	void aLimitOfTheNewKindsTakesFromNoneWhenOneIsShort() {
		startAt("2030-06-10T12:00:30");
		Policy policy = policy("10/1m sliding, 5/1m fixed, 1/1s leaky");
		assertThat(decide(check(policy, "a", 1)).admitted()).isTrue();
		for (int i = 0; i < 3; i++) {
			StoreDecision refused = decide(check(policy, "a", 1));
			assertThat(refused.admitted()).isFalse();
			assertThat(refused.results().get(0).bandwidths()).extracting(BandwidthResult::remaining)
				.containsExactly(9L, 4L, 0L);
		}
		advance(Duration.ofSeconds(1));
		StoreDecision next = decide(check(policy, "a", 1));
		assertThat(next.admitted()).isTrue();
		assertThat(next.results().get(0).bandwidths()).extracting(BandwidthResult::remaining)
			.containsExactly(8L, 3L, 0L);
	}

	@Test
	void inspectionReadsTheNewKindsWithoutTakingAnything() {
		startAt("2030-06-10T12:00:30");
		Policy limit = policy("3/1m fixed, 10/1m sliding, 10/1s leaky");
		assertThat(decide(check(limit, "a", 1)).admitted()).isTrue();
		for (int i = 0; i < 3; i++) {
			List<CheckResult> read = this.store.inspect(List.of(inspect(limit, "a"), inspect(limit, "unused")));
			assertThat(read.get(0).bandwidths()).containsExactly(new BandwidthResult(2, 0, 30_000, 0),
					new BandwidthResult(9, 0, 90_000, 0), new BandwidthResult(0, 100, 100, 100));
			assertThat(read.get(0).hadTokens()).isFalse();
			assertThat(read.get(1).bandwidths()).containsExactly(new BandwidthResult(3, 0, 0, 0),
					new BandwidthResult(10, 0, 0, 0), new BandwidthResult(1, 0, 0, 0));
			assertThat(read.get(1).hadTokens()).isTrue();
		}
		assertThat(decide(check(limit, "a", 1)).admitted()).isFalse();
		advance(Duration.ofMillis(100));
		StoreDecision next = decide(check(limit, "a", 1));
		assertThat(next.admitted()).isTrue();
		assertThat(next.results().get(0).bandwidths()).extracting(BandwidthResult::remaining)
			.containsExactly(1L, 8L, 0L);
	}

	@Test
	void aResetWindowOrLeakyBucketStartsEmpty() {
		startAt("2030-06-10T12:00:30");
		Policy limit = policy("2/1m fixed, 2/1m sliding, 2/1s leaky");
		decide(check(limit, "a", 2));
		assertThat(decide(check(limit, "a", 1)).admitted()).isFalse();
		this.store.reset(List.of(inspect(limit, "a")));
		StoreDecision after = decide(check(limit, "a", 2));
		assertThat(after.admitted()).isTrue();
	}

	// helpers

	/** Sets the time, a local time in {@link #BERLIN}, and creates the store. */
	protected final void startAt(String berlinLocalTime) {
		this.now = LocalDateTime.parse(berlinLocalTime).atZone(BERLIN).toInstant();
		setTime(this.now);
		this.store = newStore();
	}

	// changed limits, inspection, reset (operators' runtime control)

	@Test
	void aLimitChangedToOtherAmountsKeepsTheTokensSpentCappedAtTheNewCapacity() {
		startAt("2030-03-01T10:00:00");
		Policy ten = policy("10/1h");
		for (int i = 0; i < 8; i++) {
			assertThat(decide(check(ten, "a", 1)).admitted()).isTrue();
		}
		// lowered below what is held: capped at the new capacity (1), which this request
		// takes
		Policy one = policy("1/1h");
		assertThat(result(decide(check(one, "a", 1)), 0).remaining()).isZero();
		assertThat(decide(check(one, "a", 1)).admitted()).isFalse();
		// raised: the bucket stays as empty as it was, no fresh 100 are handed out
		Policy hundred = policy("100/1h");
		assertThat(decide(check(hundred, "a", 1)).admitted()).isFalse();
		// and refills at the new rate: 100 an hour is one every 36 s
		advance(Duration.ofSeconds(36));
		StoreDecision refilled = decide(check(hundred, "a", 1));
		assertThat(refilled.admitted()).isTrue();
		assertThat(result(refilled, 0).remaining()).isZero();
		// quotas keep their count for the period
		Policy quota = policy("5/month");
		decide(check(quota, "q", 3));
		assertThat(result(decide(check(policy("4/month"), "q", 1)), 0).remaining()).isZero();
		assertThat(decide(check(policy("4/month"), "q", 1)).admitted()).isFalse();
	}

	@Test
	void inspectionReadsBucketsWithoutTakingAnything() {
		startAt("2030-03-01T10:00:00");
		Policy limit = policy("10/1h, 100/month, 2 concurrent");
		StoreDecision held = decide(check(limit, "a", 3));
		assertThat(held.admitted()).isTrue();
		for (int i = 0; i < 3; i++) {
			List<CheckResult> read = this.store.inspect(List.of(inspect(limit, "a"), inspect(limit, "unused")));
			assertThat(read.get(0).bandwidths()).extracting(BandwidthResult::remaining).containsExactly(7L, 97L, 1L);
			assertThat(read.get(1).bandwidths()).extracting(BandwidthResult::remaining).containsExactly(10L, 100L, 2L);
			assertThat(read.get(1).bandwidths().get(0).millisUntilFull()).isZero();
		}
		// the permit is still the request's, and the one left is free
		assertThat(decide(check(limit, "a", 1)).admitted()).isTrue();
		assertThat(decide(check(limit, "a", 1)).admitted()).isFalse();
		held.permits().release();
	}

	@Test
	void aResetBucketStartsFull() {
		startAt("2030-03-01T10:00:00");
		Policy limit = policy("2/1h, 10/day");
		decide(check(limit, "a", 2));
		assertThat(decide(check(limit, "a", 1)).admitted()).isFalse();
		this.store.reset(List.of(inspect(limit, "a")));
		StoreDecision after = decide(check(limit, "a", 1));
		assertThat(after.admitted()).isTrue();
		assertThat(result(after, 0, 1).remaining()).isEqualTo(9);
	}

	private LimitCheck inspect(Policy policy, String id) {
		return new LimitCheck(policy, keys().key(policy, id), 1, true);
	}

	/** Moves the store's time forward. */
	protected final void advance(Duration duration) {
		this.now = this.now.plus(duration);
		setTime(this.now);
	}

	protected final StoreDecision decide(LimitCheck... checks) {
		return this.store.decide(List.of(checks));
	}

	protected final Policy policy(String limit) {
		return new Policy("t", Dimension.USER, "default", LimitParser.parse(limit, BERLIN));
	}

	protected LimitCheck check(Policy policy, String id, long cost) {
		return LimitCheck.enforced(policy, keys().key(policy, id), cost);
	}

	protected LimitCheck observed(Policy policy, String id, long cost) {
		return new LimitCheck(policy, keys().key(policy, id), cost, false);
	}

	protected LimitCheck waiting(Policy policy, String id, long maxWaitMillis) {
		return new LimitCheck(policy, keys().key(policy, id), 1, true, maxWaitMillis);
	}

	protected static BandwidthResult result(StoreDecision decision, int check) {
		return result(decision, check, 0);
	}

	protected static BandwidthResult result(StoreDecision decision, int check, int bandwidth) {
		return decision.results().get(check).bandwidths().get(bandwidth);
	}

}
