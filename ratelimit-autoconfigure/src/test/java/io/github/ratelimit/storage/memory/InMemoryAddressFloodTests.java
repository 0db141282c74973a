package io.github.ratelimit.storage.memory;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.github.ratelimit.policy.CountedResponses;
import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.LimitParser;
import io.github.ratelimit.policy.Mode;
import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.policy.PolicyScope;
import io.github.ratelimit.storage.LimitCheck;
import io.github.ratelimit.storage.StoreDecision;
import io.github.ratelimit.storage.StoreKeys;
import io.github.ratelimit.test.ManualTimeMeter;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A flood of new client addresses, far past the address bound, against what verified
 * callers have spent: a user's rate bucket, an org's monthly quota and a token's permit
 * in flight stay exactly as they were, while the address buckets stay within their bound.
 */
class InMemoryAddressFloodTests {

	private static final StoreKeys KEYS = new StoreKeys("rl:");

	private static final long MAX_ADDRESS_KEYS = 100;

	private static final long MAX_IDENTIFIED_KEYS = 50;

	private final ManualTimeMeter clock = new ManualTimeMeter(Instant.parse("2030-06-10T12:00:00Z"));

	private final InMemoryRateLimitStore store = new InMemoryRateLimitStore(MAX_ADDRESS_KEYS, MAX_IDENTIFIED_KEYS,
			this.clock, this.clock);

	private final Policy user = policy("premium", Dimension.USER, "60/1h");

	private final Policy orgQuota = policy("premium", Dimension.ORG, "100000/month");

	private final Policy tokenConcurrency = policy("premium", Dimension.TOKEN, "1 concurrent");

	private final Policy anonymous = policy("anonymous", Dimension.IP, "60/1m, 600/1h");

	private final Policy backstop = policy(PolicyScope.BACKSTOP, Dimension.IP, "6000/1m");

	private static Policy policy(String tier, Dimension dimension, String limit) {
		return new Policy(tier, dimension, "default", LimitParser.parse(limit, ZoneOffset.UTC));
	}

	private static Policy policy(PolicyScope scope, Dimension dimension, String limit) {
		return new Policy(scope, dimension, "default", LimitParser.parse(limit, ZoneOffset.UTC));
	}

	private static LimitCheck check(Policy policy, String id) {
		return LimitCheck.enforced(policy, KEYS.key(policy, id), 1);
	}

	private StoreDecision decide(LimitCheck... checks) {
		return this.store.decide(List.of(checks));
	}

	private long remaining(LimitCheck check) {
		return this.store.inspect(List.of(check)).get(0).bandwidths().get(0).remaining();
	}

	@Test
	void aFloodOfAddressesEvictsOnlyAddressBuckets() {
		LimitCheck paula = check(this.user, "paula");
		LimitCheck acme = check(this.orgQuota, "acme");
		LimitCheck integration = check(this.tokenConcurrency, "t-1234");
		for (int i = 0; i < 60; i++) {
			assertThat(decide(paula, acme).admitted()).isTrue();
		}
		assertThat(decide(paula, acme).admitted()).as("the user's hour is spent").isFalse();
		StoreDecision holder = decide(integration);
		assertThat(holder.admitted()).isTrue();
		// an attacker's rotation: every /64 of a /48 a new client, each back a few times
		for (int round = 0; round < 4; round++) {
			for (int i = 0; i < 20_000; i++) {
				String address = "2001:db8:7:" + Integer.toHexString(i) + "::/64";
				decide(check(this.anonymous, address), check(this.backstop, address));
			}
		}
		this.store.cleanUp();
		assertThat(remaining(paula)).as("the user's spent budget").isZero();
		assertThat(decide(paula).admitted()).isFalse();
		assertThat(remaining(acme)).as("the org's monthly quota").isEqualTo(100000 - 60);
		assertThat(decide(integration).admitted()).as("the token's permit is still held").isFalse();
		assertThat(this.store.identifiedEvictions()).isZero();
		holder.permits().release();
		assertThat(decide(integration).admitted()).isTrue();
		assertThat(this.store.addressSize()).isLessThanOrEqualTo(MAX_ADDRESS_KEYS);
	}

	@Test
	void addressBucketsOfEveryTierShareTheAddressBound() {
		Policy premiumIp = policy("premium", Dimension.IP, "600/1m");
		for (int i = 0; i < 10_000; i++) {
			String address = "10.0." + (i >> 8) + "." + (i & 255);
			decide(check(premiumIp, address), check(this.backstop, address));
		}
		this.store.cleanUp();
		assertThat(this.store.addressSize()).isLessThanOrEqualTo(MAX_ADDRESS_KEYS);
		assertThat(this.store.identifiedSize()).isZero();
	}

	@Test
	void theIdentifiedPartitionIsBoundedToo() {
		// verified ids are the application's own callers; a resolver that made them up
		// must not exhaust the heap
		for (int i = 0; i < 10_000; i++) {
			decide(check(this.user, "user-" + i), check(this.orgQuota, "org-" + i));
		}
		this.store.cleanUp();
		assertThat(this.store.identifiedSize()).isLessThanOrEqualTo(MAX_IDENTIFIED_KEYS);
		assertThat(this.store.identifiedEvictions()).isPositive();
	}

	@Test
	void aFloodOfKeyValuesEvictsOnlyBucketsOfCallerInput() {
		// a key's values are caller input, as addresses are: a header that rotates them
		// must not evict what verified callers spent
		Policy tenant = Policy.keyed("anonymous", "tenant", "default", LimitParser.parse("60/1m", ZoneOffset.UTC),
				Mode.ENFORCE, 0, CountedResponses.ALL);
		LimitCheck paula = check(this.user, "paula");
		for (int i = 0; i < 60; i++) {
			assertThat(decide(paula).admitted()).isTrue();
		}
		for (int i = 0; i < 20_000; i++) {
			decide(check(tenant, "tenant-" + i));
		}
		this.store.cleanUp();
		assertThat(decide(paula).admitted()).as("the user's spent hour").isFalse();
		assertThat(this.store.identifiedEvictions()).isZero();
		assertThat(this.store.identifiedSize()).isOne();
		assertThat(this.store.addressSize()).isLessThanOrEqualTo(MAX_ADDRESS_KEYS);
	}

	@Test
	void aBusyAddressKeepsItsSpentBucketThroughAFloodOfNewAddresses() {
		// the busy client's takes are mostly not recorded as reads of the map (see
		// BucketPartitions#read): the ones that are must still keep its bucket ahead of
		// addresses seen once, or the flood would hand it a full bucket
		LimitCheck busy = check(this.anonymous, "198.51.100.7");
		for (int i = 0; i < 60; i++) {
			assertThat(decide(busy).admitted()).isTrue();
		}
		int admitted = 0;
		for (int i = 0; i < 20_000; i++) {
			String address = "2001:db8:7:" + Integer.toHexString(i) + "::/64";
			decide(check(this.anonymous, address), check(this.backstop, address));
			if (i % 10 == 0) {
				// ten requests of the busy client a second, a hundred flood addresses
				this.clock.advance(Duration.ofMillis(100));
				if (decide(busy).admitted()) {
					admitted++;
				}
			}
		}
		// 200 s refill 200 of the minute's tokens; a bucket evicted and made anew would
		// admit its whole minute again
		assertThat(admitted).isBetween(199, 201);
		assertThat(this.store.addressSize()).isLessThanOrEqualTo(MAX_ADDRESS_KEYS);
	}

}
