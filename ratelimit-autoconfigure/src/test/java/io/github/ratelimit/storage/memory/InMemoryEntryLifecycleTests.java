package io.github.ratelimit.storage.memory;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.LimitParser;
import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.storage.CheckResult;
import io.github.ratelimit.storage.LimitCheck;
import io.github.ratelimit.storage.StoreDecision;
import io.github.ratelimit.storage.StoreKeys;
import io.github.ratelimit.test.ManualTimeMeter;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How long the memory store keeps an entry, and what eviction does to counts: the size
 * bound and idle expiry must not lose permits in flight, a quota's count or a bucket's
 * debt, and a permit goes back to the entry it came from.
 */
class InMemoryEntryLifecycleTests {

	private static final StoreKeys KEYS = new StoreKeys("rl:");

	private final ManualTimeMeter clock = new ManualTimeMeter(Instant.parse("2030-06-10T12:00:00Z"));

	private final InMemoryRateLimitStore store = new InMemoryRateLimitStore(10, this.clock, this.clock);

	private static Policy policy(String limit) {
		return new Policy("t", Dimension.USER, "default", LimitParser.parse(limit, ZoneOffset.UTC));
	}

	private static LimitCheck check(Policy policy, String id) {
		return LimitCheck.enforced(policy, KEYS.key(policy, id), 1);
	}

	private StoreDecision decide(LimitCheck... checks) {
		return this.store.decide(List.of(checks));
	}

	private void flood() {
		Policy other = policy("5/1m");
		for (int i = 0; i < 1000; i++) {
			decide(check(other, "ip-" + i));
		}
		this.store.cleanUp();
	}

	/**
	 * Lets the entries due so far expire: Caffeine's timer wheel sweeps them about once a
	 * second.
	 */
	private void sweep() {
		this.clock.advance(Duration.ofSeconds(2));
		this.store.cleanUp();
	}

	@Test
	void sizeBoundPassesOverAnEntryWithPermitsInFlight() {
		Policy policy = policy("1 concurrent");
		StoreDecision holder = decide(check(policy, "a"));
		flood();
		assertThat(this.store.size()).isLessThanOrEqualTo(11);
		assertThat(decide(check(policy, "a")).admitted()).isFalse();
		holder.permits().release();
		assertThat(decide(check(policy, "a")).admitted()).isTrue();
	}

	@Test
	void entryWithPermitsInFlightNeverIdlesOutButIsForgottenOnceFree() {
		Policy policy = policy("1 concurrent");
		StoreDecision holder = decide(check(policy, "a"));
		this.clock.advance(Duration.ofDays(40));
		this.store.cleanUp();
		assertThat(decide(check(policy, "a")).admitted()).isFalse();
		holder.permits().release();
		sweep();
		assertThat(this.store.size()).isZero();
	}

	@Test
	void freedEntryIsSubjectToTheSizeBoundAgain() {
		Policy policy = policy("1 concurrent");
		decide(check(policy, "a")).permits().release();
		flood();
		assertThat(this.store.size()).isLessThanOrEqualTo(10);
	}

	@Test
	void permitGoesBackToTheEntryItWasTakenFrom() {
		Policy policy = policy("1 concurrent");
		StoreDecision first = decide(check(policy, "a"));
		this.store.evict(KEYS.key(policy, "a"));
		// the count went with the entry (the documented cost of an eviction)
		StoreDecision second = decide(check(policy, "a"));
		assertThat(second.admitted()).isTrue();
		// releasing the first permit leaves the new entry's count alone
		first.permits().release();
		assertThat(decide(check(policy, "a")).admitted()).isFalse();
		second.permits().release();
		// one permit free, not two: no count went below zero
		StoreDecision observed = decide(new LimitCheck(policy, KEYS.key(policy, "a"), 1, false));
		assertThat(observed.results().get(0).hadTokens()).isTrue();
		assertThat(observed.results().get(0).bandwidths().get(0).remaining()).isZero();
	}

	@Test
	void entryWithAUsedQuotaLivesUntilThePeriodEnds() {
		Policy policy = policy("1/day");
		decide(check(policy, "a"));
		this.clock.advance(Duration.ofHours(12).minusMillis(1));
		this.store.cleanUp();
		assertThat(this.store.size()).isOne();
		assertThat(decide(check(policy, "a")).admitted()).isFalse();
		sweep();
		assertThat(this.store.size()).isZero();
	}

	@Test
	void entryWithAnUnusedQuotaIsForgottenAtOnce() {
		Policy policy = policy("1/day");
		decide(new LimitCheck(policy, KEYS.key(policy, "a"), 2, false));
		sweep();
		assertThat(this.store.size()).isZero();
	}

	@Test
	void entryWithAFixedWindowCountLivesUntilTheWindowEnds() {
		Policy policy = policy("1/1h fixed");
		decide(check(policy, "a"));
		this.clock.advance(Duration.ofHours(1).minusMillis(1));
		this.store.cleanUp();
		assertThat(this.store.size()).isOne();
		assertThat(decide(check(policy, "a")).admitted()).isFalse();
		sweep();
		assertThat(this.store.size()).isZero();
	}

	@Test
	void entryWithASlidingWindowCountLivesUntilTheCountHasSlidOut() {
		Policy policy = policy("10/1m sliding");
		decide(new LimitCheck(policy, KEYS.key(policy, "a"), 10, true));
		// at 12:01:59 the window of 12:00 still weighs 1/60
		this.clock.advance(Duration.ofSeconds(119));
		this.store.cleanUp();
		assertThat(this.store.size()).isOne();
		List<CheckResult> read = this.store.inspect(List.of(check(policy, "a")));
		assertThat(read.get(0).bandwidths().get(0).remaining()).isEqualTo(9);
		sweep();
		assertThat(this.store.size()).isZero();
	}

	@Test
	void entryWithASlidingWindowCountOfThePreviousWindowOnlyLivesUntilThatHasSlidOut() {
		Policy policy = policy("10/1m sliding");
		LimitCheck check = check(policy, "a");
		this.clock.advance(Duration.ofSeconds(59));
		decide(new LimitCheck(policy, KEYS.key(policy, "a"), 10, true));
		// 12:01:30: the window of 12:00 weighs half; a request counted now and given back
		// leaves the current window empty
		this.clock.advance(Duration.ofSeconds(31));
		assertThat(decide(check).results().get(0).bandwidths().get(0).remaining()).isEqualTo(4);
		this.store.giveBack(List.of(check));
		this.clock.advance(Duration.ofSeconds(29));
		this.store.cleanUp();
		assertThat(this.store.inspect(List.of(check)).get(0).bandwidths().get(0).remaining()).isEqualTo(9);
		// gone once the window of 12:00 has slid out, not a window later
		sweep();
		assertThat(this.store.size()).isZero();
	}

	@Test
	void entryWithALeakyBacklogLivesUntilItDrains() {
		Policy policy = policy("1/1s leaky");
		LimitCheck waiting = new LimitCheck(policy, KEYS.key(policy, "a"), 1, true, 5000);
		for (int i = 0; i < 4; i++) {
			decide(waiting);
		}
		// four slots queued: drained after 4 s
		this.clock.advance(Duration.ofSeconds(2));
		this.store.cleanUp();
		assertThat(decide(waiting).waitMillis()).isEqualTo(2000);
		this.clock.advance(Duration.ofMillis(2999));
		this.store.cleanUp();
		assertThat(this.store.size()).isOne();
		sweep();
		assertThat(this.store.size()).isZero();
	}

	@Test
	void bucketInDebtOutlivesTheIdleTimeOfAFullOne() {
		Policy policy = policy("1/1s");
		LimitCheck waiting = new LimitCheck(policy, KEYS.key(policy, "a"), 1, true, 5000);
		for (int i = 0; i < 4; i++) {
			decide(waiting);
		}
		// three tokens of debt: full again after 4 s, not after the 1 s of an idle bucket
		this.clock.advance(Duration.ofSeconds(2));
		this.store.cleanUp();
		assertThat(decide(waiting).waitMillis()).isEqualTo(2000);
		this.clock.advance(Duration.ofSeconds(10));
		this.store.cleanUp();
		assertThat(this.store.size()).isZero();
	}

	@Test
	void bucketEmptiedBetweenRecordedReadsIsKeptUntilItIsFull() {
		Policy policy = policy("600/1m");
		decide(check(policy, "a"));
		// 0.9 s later the bucket is full again and this take, not recorded in the map (a
		// busy key's reads skip its bookkeeping), empties it: full again at 60.9 s, later
		// than the minute an idle bucket needs from the recorded read
		this.clock.advance(Duration.ofMillis(900));
		assertThat(decide(LimitCheck.enforced(policy, KEYS.key(policy, "a"), 600)).admitted()).isTrue();
		this.clock.advance(Duration.ofMillis(59_600));
		this.store.cleanUp();
		StoreDecision decision = decide(check(policy, "a"));
		// 596 tokens back (59.6 s at 10 per second), not a forgotten, full bucket
		assertThat(decision.results().get(0).bandwidths().get(0).remaining()).isEqualTo(595);
	}

	@Test
	void bucketRefundedToFullIsForgottenWithoutWaitingForItsRefill() {
		Policy policy = policy("1/1h");
		LimitCheck check = check(policy, "a");
		decide(check);
		// the response was not one the limit counts: the token comes back, the bucket is
		// full and nothing is left to remember, an hour before an emptied one would be
		this.store.giveBack(List.of(check));
		sweep();
		assertThat(this.store.size()).isZero();
	}

	@Test
	void countingEntryInDebtOutlivesTheIdleTimeOfAFullOne() {
		Policy policy = policy("1/1s, 5 concurrent");
		LimitCheck waiting = new LimitCheck(policy, KEYS.key(policy, "a"), 1, true, 5000);
		for (int i = 0; i < 4; i++) {
			decide(waiting).permits().release();
		}
		this.clock.advance(Duration.ofSeconds(2));
		this.store.cleanUp();
		StoreDecision decision = decide(waiting);
		assertThat(decision.waitMillis()).isEqualTo(2000);
		assertThat(decision.results().get(0).bandwidths().get(1).remaining()).isEqualTo(4);
	}

	@Test
	void neverMoreRequestsInFlightThanPermits() throws Exception {
		Policy policy = policy("3 concurrent");
		AtomicInteger inFlight = new AtomicInteger();
		AtomicInteger most = new AtomicInteger();
		ExecutorService pool = Executors.newFixedThreadPool(8);
		CountDownLatch start = new CountDownLatch(1);
		List<Future<Integer>> futures = new ArrayList<>();
		for (int t = 0; t < 8; t++) {
			futures.add(pool.submit(() -> {
				start.await();
				int admitted = 0;
				for (int i = 0; i < 2000; i++) {
					StoreDecision decision = decide(check(policy, "hot"));
					if (decision.admitted()) {
						admitted++;
						most.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
						inFlight.decrementAndGet();
						decision.permits().release();
					}
				}
				return admitted;
			}));
		}
		start.countDown();
		int total = 0;
		for (Future<Integer> future : futures) {
			total += future.get(30, TimeUnit.SECONDS);
		}
		pool.shutdown();
		assertThat(total).isPositive();
		assertThat(most.get()).isLessThanOrEqualTo(3);
		StoreDecision after = decide(new LimitCheck(policy, KEYS.key(policy, "hot"), 1, false));
		assertThat(after.results().get(0).bandwidths().get(0).remaining()).as("every permit came back").isEqualTo(2);
	}

}
