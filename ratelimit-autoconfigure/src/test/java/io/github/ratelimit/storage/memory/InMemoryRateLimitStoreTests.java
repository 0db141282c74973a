package io.github.ratelimit.storage.memory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.LimitParser;
import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.storage.BandwidthResult;
import io.github.ratelimit.storage.LimitCheck;
import io.github.ratelimit.storage.StoreDecision;
import io.github.ratelimit.test.ManualTimeMeter;

import static org.assertj.core.api.Assertions.assertThat;

class InMemoryRateLimitStoreTests {

	private final ManualTimeMeter time = new ManualTimeMeter();

	private final InMemoryRateLimitStore store = new InMemoryRateLimitStore(1000, this.time);

	private static LimitCheck check(String limit, String key, long cost) {
		return LimitCheck.enforced(new Policy("t", Dimension.USER, "default", LimitParser.parse(limit)), key, cost);
	}

	private static long[] remaining(StoreDecision decision, int check) {
		return decision.results().get(check).bandwidths().stream().mapToLong(BandwidthResult::remaining).toArray();
	}

	@Test
	void reportsTokensLeftPerBandwidth() {
		LimitCheck check = check("5/1m, 7/1h", "a", 2);
		StoreDecision decision = this.store.decide(List.of(check));
		assertThat(decision.admitted()).isTrue();
		assertThat(remaining(decision, 0)).containsExactly(3, 5);
	}

	@Test
	void rejectedRequestDrainsNoBucket() {
		LimitCheck roomy = check("10/1m", "roomy", 1);
		LimitCheck tight = check("1/1m", "tight", 1);
		assertThat(this.store.decide(List.of(roomy, tight)).admitted()).isTrue();
		for (int i = 0; i < 5; i++) {
			StoreDecision rejected = this.store.decide(List.of(roomy, tight));
			assertThat(rejected.admitted()).isFalse();
			assertThat(rejected.results().get(0).hadTokens()).isTrue();
			assertThat(remaining(rejected, 0)).containsExactly(9);
			assertThat(rejected.results().get(1).hadTokens()).isFalse();
		}
		assertThat(remaining(this.store.decide(List.of(roomy)), 0)).containsExactly(8);
	}

	@Test
	void refillsWithTheInjectedClock() {
		LimitCheck check = check("2/1m", "r", 1);
		this.store.decide(List.of(check));
		this.store.decide(List.of(check));
		assertThat(this.store.decide(List.of(check)).admitted()).isFalse();
		this.time.advance(Duration.ofSeconds(30));
		assertThat(this.store.decide(List.of(check)).admitted()).isTrue();
	}

	@Test
	void costAboveCapacityIsNeverAdmitted() {
		assertThat(this.store.decide(List.of(check("3/1m", "c", 4))).admitted()).isFalse();
		assertThat(this.store.decide(List.of(check("3/1m", "c", 3))).admitted()).isTrue();
	}

	@Test
	void boundedNumberOfKeys() {
		InMemoryRateLimitStore small = new InMemoryRateLimitStore(100, this.time);
		for (int i = 0; i < 10_000; i++) {
			small.decide(List.of(check("5/1m", "ip-" + i, 1)));
		}
		small.cleanUp();
		assertThat(small.size()).isLessThanOrEqualTo(100);
	}

	@Test
	void admitsExactlyTheLimitUnderConcurrency() throws Exception {
		LimitCheck user = check("500/1h", "hot", 1);
		LimitCheck org = check("100000/1h", "org", 1);
		ExecutorService pool = Executors.newFixedThreadPool(8);
		CountDownLatch start = new CountDownLatch(1);
		List<Future<Integer>> futures = new ArrayList<>();
		for (int t = 0; t < 8; t++) {
			futures.add(pool.submit(() -> {
				start.await();
				int admitted = 0;
				for (int i = 0; i < 200; i++) {
					if (this.store.decide(List.of(org, user)).admitted()) {
						admitted++;
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
		assertThat(total).isEqualTo(500);
		// the rejected 1100 took nothing from the org
		assertThat(remaining(this.store.decide(List.of(org)), 0)).containsExactly(100000 - 501);
	}

	@Test
	void reportsWaitsOfTheRefusingBandwidth() {
		LimitCheck check = check("10/1m, 100/1h", "w", 10);
		assertThat(this.store.decide(List.of(check)).results().get(0).bandwidths())
			.containsExactly(new BandwidthResult(0, 0, 60_000, 60_000), new BandwidthResult(90, 0, 360_000, 0));
		this.time.advance(Duration.ofSeconds(30));
		StoreDecision refused = this.store.decide(List.of(check));
		assertThat(refused.admitted()).isFalse();
		assertThat(refused.results().get(0).bandwidths().get(0))
			.isEqualTo(new BandwidthResult(5, 30_000, 30_000, 30_000));
		assertThat(refused.results().get(0).bandwidths().get(1).wasShort()).isFalse();
	}

	@Test
	void oneBucketReportsWhatItFoundAndTheWaitsOfARefusal() {
		LimitCheck check = check("10/1m", "one", 10);
		assertThat(this.store.decide(List.of(check)).results().get(0).bandwidths())
			.containsExactly(new BandwidthResult(0, 0, 60_000, 60_000));
		this.time.advance(Duration.ofSeconds(30));
		StoreDecision refused = this.store.decide(List.of(check));
		assertThat(refused.admitted()).isFalse();
		assertThat(refused.results().get(0).bandwidths())
			.containsExactly(new BandwidthResult(5, 30_000, 30_000, 30_000));
	}

	@Test
	void aRefusalOfABucketInDebtWaitsForTheDebtToo() {
		Policy policy = new Policy("t", Dimension.USER, "default", LimitParser.parse("10/1m"));
		this.store.decide(List.of(LimitCheck.enforced(policy, "debt", 10)));
		// a request that may wait reserves three tokens the bucket has yet to refill
		LimitCheck waiting = new LimitCheck(policy, "debt", 3, true, 30_000);
		assertThat(this.store.decide(List.of(waiting)).waitMillis()).isEqualTo(18_000);
		StoreDecision refused = this.store.decide(List.of(LimitCheck.enforced(policy, "debt", 1)));
		assertThat(refused.admitted()).isFalse();
		// four tokens away: the three reserved and its own
		assertThat(refused.results().get(0).bandwidths())
			.containsExactly(new BandwidthResult(0, 24_000, 78_000, 24_000));
	}

	@Test
	void checkThatIsNotEnforcedIsMeasuredButNeverRefuses() {
		LimitCheck enforced = check("10/1m", "e", 1);
		LimitCheck spent = check("1/1h", "o", 1);
		this.store.decide(List.of(spent));
		LimitCheck observed = new LimitCheck(spent.policy(), spent.key(), 1, false);
		StoreDecision decision = this.store.decide(List.of(enforced, observed));
		assertThat(decision.admitted()).isTrue();
		assertThat(decision.results().get(1).hadTokens()).isFalse();
		assertThat(remaining(decision, 0)).containsExactly(9);
	}

}
