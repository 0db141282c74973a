package io.github.ratelimit.core;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.github.ratelimit.control.BanRules;
import io.github.ratelimit.control.RuntimeControl;
import io.github.ratelimit.control.Subject;
import io.github.ratelimit.identity.ClientIpResolver;
import io.github.ratelimit.identity.Identifier;
import io.github.ratelimit.policy.Classification;
import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.PolicyRegistry;
import io.github.ratelimit.policy.PolicyTable;
import io.github.ratelimit.storage.StoreKeys;
import io.github.ratelimit.storage.memory.InMemoryControlStore;
import io.github.ratelimit.storage.memory.InMemoryRateLimitStore;
import io.github.ratelimit.test.ManualTimeMeter;
import io.github.ratelimit.test.TestRequest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A bucket this instance decides often takes reserves of tokens from the remote store and
 * spends them without asking it: far fewer store calls than requests, never more admitted
 * than the limit (one instance or two), unspent tokens given back after the hold, and
 * nothing spent under limits that changed.
 */
class HotKeyReservesTests {

	private static final String CLIENT = "203.0.113.7";

	private final ManualTimeMeter time = new ManualTimeMeter(Instant.parse("2026-03-01T10:00:00Z"));

	private final InMemoryRateLimitStore memory = new InMemoryRateLimitStore(10_000, this.time, this.time);

	// hot: 10000 a day, reserves of 100 (a hundredth); exact: 1000 a day, reserves of 10;
	// small: 150 a day, too small for a reserve (a hundredth is 1)
	private final PolicyTable table = PolicyTable.build(
			Map.of("anonymous", Map.of("ip", Map.of("default", "10000/1d", "exact", "1000/1d", "small", "150/1d"))),
			Map.of(), Set.of("exact", "small"));

	private final RuntimeControl control = new RuntimeControl(new InMemoryControlStore(this.time),
			new PolicyRegistry(this.table), List.of(), BanRules.NONE, this.time, Duration.ofSeconds(1));

	private final CountingRemoteStore store = new CountingRemoteStore(this.memory);

	private final RateLimiter limiter = limiter(this.store);

	private RateLimiter limiter(CountingRemoteStore store) {
		return RateLimiter
			.builder(new Identifier(List.of(), new ClientIpResolver(List.of(), 32, 64), this.table.tiers(), "anonymous",
					"authenticated"), store)
			.control(this.control)
			.clock(this.time)
			.build();
	}

	private static Decision request(RateLimiter limiter, String group) {
		return limiter.decide(TestRequest.from(CLIENT), Classification.of(group, 1));
	}

	private static int admitted(RateLimiter limiter, String group, int requests) {
		int admitted = 0;
		for (int i = 0; i < requests; i++) {
			if (request(limiter, group).outcome() == Outcome.ALLOWED) {
				admitted++;
			}
		}
		return admitted;
	}

	@Test
	void aHotBucketIsDecidedMostlyFromReservesWithFarFewerStoreCallsThanRequests() {
		assertThat(admitted(this.limiter, "default", 2000)).isEqualTo(2000);
		// the first hundred decisions make the bucket hot; then one call per reserve of
		// 100
		assertThat(this.store.calls).isLessThan(150);
		assertThat(this.limiter.hotKeyReserves().admitted()).isGreaterThan(1850);
		assertThat(this.limiter.hotKeyReserves().held()).isBetween(1L, 100L);
	}

	@Test
	void theRemainingTokensReportedFromAReserveCountDownByOneAsTheStoreWould() {
		long previous = Long.MAX_VALUE;
		for (int i = 0; i < 1000; i++) {
			long remaining = Decisions.allowed(request(this.limiter, "default")).limits().binding().remaining();
			assertThat(remaining).isEqualTo(10_000 - 1 - i).isLessThan(previous);
			previous = remaining;
		}
		assertThat(this.limiter.hotKeyReserves().admitted()).isPositive();
	}

	@Test
	void aColdBucketAndASmallLimitAskTheStoreEveryTime() {
		// 50 a second is below a reserve's worth (100) of decisions a second
		for (int second = 0; second < 5; second++) {
			assertThat(admitted(this.limiter, "default", 50)).isEqualTo(50);
			this.time.advance(Duration.ofSeconds(1));
		}
		assertThat(this.store.calls).isEqualTo(250);
		assertThat(admitted(this.limiter, "small", 400)).isEqualTo(150);
		// 150 admissions and the first refusal; the store's refusal is remembered after
		assertThat(this.store.calls).isEqualTo(250 + 151);
		assertThat(this.limiter.hotKeyReserves().admitted()).isZero();
	}

	@Test
	void oneInstanceAdmitsExactlyTheLimitAndAllRefusalsComeFromTheStoresCount() {
		assertThat(admitted(this.limiter, "exact", 3000)).isEqualTo(1000);
		assertThat(this.limiter.hotKeyReserves().admitted()).isPositive();
		assertThat(this.limiter.hotKeyReserves().held()).isZero();
	}

	@Test
	void twoInstancesNeverAdmitMoreThanTheLimitAndTheUnspentReserveGoesBackAfterTheHold() {
		CountingRemoteStore other = new CountingRemoteStore(this.memory);
		RateLimiter second = limiter(other);
		int admitted = 0;
		for (int round = 0; round < 50; round++) {
			admitted += admitted(this.limiter, "exact", 5) + admitted(second, "exact", 5);
		}
		assertThat(admitted).isEqualTo(500);
		long heldByFirst = this.limiter.hotKeyReserves().held();
		assertThat(heldByFirst).isBetween(1L, 10L);
		// the second alone: what the first still holds is missing to it, never more
		admitted += admitted(second, "exact", 1000);
		assertThat(admitted).isEqualTo(1000 - heldByFirst);
		assertThat(second.hotKeyReserves().held()).isZero();
		// after the hold the first's unspent tokens are back in the store (the second
		// remembers the store's refusal, and would ask again once a token refilled)
		this.time.advance(HotKeyReserves.DEFAULT_HOLD.plusMillis(1));
		this.limiter.hotKeyReserves().sweep(this.time.millis());
		assertThat(this.store.giveBacks).isOne();
		assertThat(this.limiter.hotKeyReserves().held()).isZero();
		admitted += admitted(this.limiter, "exact", 100);
		assertThat(admitted).isEqualTo(1000);
	}

	@Test
	void anOverrideDropsTheReservesTakenUnderTheOldLimit() {
		assertThat(admitted(this.limiter, "exact", 200)).isEqualTo(200);
		assertThat(this.limiter.hotKeyReserves().held()).isPositive();
		// lowered to 5 a day: no token reserved under the old limit is spent under it
		this.control.setOverride(Dimension.IP, CLIENT, "exact", "5/1d", null);
		assertThat(admitted(this.limiter, "exact", 20)).isEqualTo(5);
		assertThat(this.limiter.hotKeyReserves().held()).isZero();
	}

	@Test
	void anOperatorsResetDropsTheBucketsReserve() {
		assertThat(admitted(this.limiter, "exact", 200)).isEqualTo(200);
		assertThat(this.limiter.hotKeyReserves().held()).isPositive();
		new SubjectBuckets(this.control, this.store, new StoreKeys(StoreKeys.DEFAULT_PREFIX),
				this.limiter::forgetLocally)
			.reset(Subject.of(Dimension.IP, CLIENT));
		assertThat(this.limiter.hotKeyReserves().held()).isZero();
		// full again, and no token of before the reset spent on top of it
		assertThat(admitted(this.limiter, "exact", 2000)).isEqualTo(1000);
	}

}
