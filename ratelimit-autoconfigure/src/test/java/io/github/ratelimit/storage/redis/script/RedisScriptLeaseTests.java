package io.github.ratelimit.storage.redis.script;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

import io.github.ratelimit.policy.ConcurrencyLimit;
import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.storage.BandwidthResult;
import io.github.ratelimit.storage.LimitCheck;
import io.github.ratelimit.storage.Permits;
import io.github.ratelimit.storage.StoreDecision;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Concurrency permits of the script store are leases in Redis: they run out unless
 * renewed, so an instance that dies leaks none for longer than the lease time.
 */
class RedisScriptLeaseTests {

	private static final Duration LEASE = Duration.ofSeconds(30);

	private static final long RETRY = ConcurrencyLimit.RETRY_MILLIS;

	private final AtomicLong time = new AtomicLong(System.currentTimeMillis());

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
	void permitOfAnInstanceThatDiedIsFreeOnceItsLeaseRunsOut() {
		LimitCheck cap = this.stores.check(this.stores.policy("1 concurrent"), "alice");
		RedisScriptRateLimitStore died = this.stores.connected(LEASE, this.time::get);
		assertThat(died.decide(List.of(cap)).admitted()).isTrue();
		// neither released nor renewed from now on, as when the instance is killed
		died.close();
		RedisScriptRateLimitStore survivor = this.stores.connected(LEASE, this.time::get);
		advance(LEASE.minusMillis(1));
		StoreDecision refused = survivor.decide(List.of(cap));
		assertThat(refused.admitted()).isFalse();
		assertThat(refused.results().get(0).bandwidths()).containsExactly(new BandwidthResult(0, RETRY, RETRY, RETRY));
		advance(Duration.ofMillis(1));
		StoreDecision admitted = survivor.decide(List.of(cap));
		assertThat(admitted.admitted()).isTrue();
		assertThat(admitted.results().get(0).bandwidths()).containsExactly(new BandwidthResult(0, 0, RETRY, RETRY));
	}

	@Test
	void renewalKeepsThePermitOfALongRequest() {
		LimitCheck cap = this.stores.check(this.stores.policy("1 concurrent"), "alice");
		RedisScriptRateLimitStore store = this.stores.connected(LEASE, this.time::get);
		StoreDecision longRequest = store.decide(List.of(cap));
		advance(Duration.ofSeconds(20));
		store.leases().renew().join();
		// 40 s after the permit was taken: only the renewal holds it
		advance(Duration.ofSeconds(20));
		assertThat(store.decide(List.of(cap)).admitted()).isFalse();
		longRequest.permits().release();
		StoreDecision next = store.decide(List.of(cap));
		assertThat(next.admitted()).isTrue();
		assertThat(store.leases().size()).isOne();
	}

	@Test
	void leasesAreRenewedInTheBackgroundUntilReleased() {
		LimitCheck cap = this.stores.check(this.stores.policy("1 concurrent"), "alice");
		// Redis's clock: only the renewals every 100 ms keep the permit past its lease of
		// 300 ms
		RedisScriptRateLimitStore store = this.stores.connected(Duration.ofMillis(300), null);
		StoreDecision longRequest = store.decide(List.of(cap));
		assertThat(longRequest.admitted()).isTrue();
		await().during(Duration.ofMillis(1500))
			.atMost(Duration.ofSeconds(3))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> !store.decide(List.of(cap)).admitted());
		longRequest.permits().release();
		assertThat(store.leases().size()).isZero();
		assertThat(store.decide(List.of(cap)).admitted()).isTrue();
	}

	@Test
	void refusedRequestLeavesNoLease() {
		Policy capPolicy = this.stores.policy("2 concurrent");
		LimitCheck cap = this.stores.check(capPolicy, "alice");
		LimitCheck spent = this.stores.check(this.stores.policy(Dimension.IP, "1/1h"), "203.0.113.9");
		RedisScriptRateLimitStore store = this.stores.connected(LEASE, this.time::get);
		store.decide(List.of(spent));

		StoreDecision refusedByBucket = store.decide(List.of(cap, spent));

		assertThat(refusedByBucket.admitted()).isFalse();
		assertThat(refusedByBucket.results().get(0).hadTokens()).as("a permit was free").isTrue();
		assertThat(refusedByBucket.permits()).isSameAs(Permits.NONE);
		assertThat(store.leases().size()).isZero();
		assertThat(this.stores.redis().hkeys(cap.key())).noneMatch((field) -> field.startsWith("p"));

		assertThat(store.decide(List.of(cap)).admitted()).isTrue();
		assertThat(store.decide(List.of(cap)).admitted()).isTrue();
		StoreDecision refusedByCap = store.decide(List.of(cap));
		assertThat(refusedByCap.admitted()).isFalse();
		assertThat(refusedByCap.permits()).isSameAs(Permits.NONE);
		assertThat(store.leases().size()).isEqualTo(2);
		assertThat(this.stores.redis().hkeys(cap.key())).filteredOn((field) -> field.startsWith("p"))
			.containsExactlyInAnyOrder("p1", "p2");
	}

	@Test
	void keyOfAHeldPermitLivesAsLongAsItsLease() {
		LimitCheck check = this.stores.check(this.stores.policy("10/1s, 1 concurrent"), "alice");
		RedisScriptRateLimitStore store = this.stores.connected(Duration.ofMinutes(5), null);
		store.decide(List.of(check));
		// the token bucket alone would be full again, and its key gone, within 100 ms
		assertThat(this.stores.redis().pttl(check.key())).isGreaterThan(Duration.ofMinutes(4).toMillis());
	}

	@Test
	void refusalAcrossSlotsGivesBackQuotaCountsAndPermits() {
		// every key a slot of its own, as in Redis Cluster: the admitting slots give back
		// what they took
		RedisScriptRateLimitStore store = this.stores.connected(LEASE, this.time::get, this.time::get,
				Arrays::hashCode);
		LimitCheck quota = this.stores.check(this.stores.policy(Dimension.ORG, "10/day"), "acme");
		LimitCheck cap = this.stores.check(this.stores.policy(Dimension.USER, "1 concurrent"), "alice");
		LimitCheck spent = this.stores.check(this.stores.policy(Dimension.IP, "1/1h"), "203.0.113.9");
		store.decide(List.of(spent));

		StoreDecision refused = store.decide(List.of(quota, cap, spent));

		assertThat(refused.admitted()).isFalse();
		assertThat(refused.results().get(0).hadTokens()).isTrue();
		assertThat(refused.results().get(1).hadTokens()).isTrue();
		assertThat(refused.results().get(0).bandwidths().get(0).remaining()).as("as found").isEqualTo(10);
		assertThat(refused.results().get(1).bandwidths()).containsExactly(new BandwidthResult(1, 0, 0, 0));
		assertThat(store.leases().size()).isZero();
		StoreDecision next = store.decide(List.of(quota, cap));
		assertThat(next.admitted()).isTrue();
		assertThat(next.results().get(0).bandwidths().get(0).remaining()).isEqualTo(9);
		assertThat(next.results().get(1).bandwidths().get(0).remaining()).isZero();
	}

	@Test
	void renewsAndReleasesLeasesInEverySlot() {
		RedisScriptRateLimitStore store = this.stores.connected(LEASE, this.time::get, this.time::get,
				Arrays::hashCode);
		LimitCheck user = this.stores.check(this.stores.policy(Dimension.USER, "1 concurrent"), "alice");
		LimitCheck org = this.stores.check(this.stores.policy(Dimension.ORG, "1 concurrent"), "acme");
		StoreDecision longRequest = store.decide(List.of(user, org));
		assertThat(longRequest.admitted()).isTrue();
		advance(Duration.ofSeconds(20));
		store.leases().renew().join();
		advance(Duration.ofSeconds(20));
		assertThat(store.decide(List.of(user)).admitted()).isFalse();
		assertThat(store.decide(List.of(org)).admitted()).isFalse();
		longRequest.permits().release();
		assertThat(store.decide(List.of(user, org)).admitted()).isTrue();
	}

	private void advance(Duration duration) {
		this.time.addAndGet(duration.toMillis());
	}

}
