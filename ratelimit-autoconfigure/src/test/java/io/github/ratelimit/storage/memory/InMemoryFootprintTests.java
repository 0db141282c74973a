package io.github.ratelimit.storage.memory;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.List;

import io.github.bucket4j.TimeMeter;
import org.junit.jupiter.api.Test;

import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.LimitParser;
import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.policy.PolicyScope;
import io.github.ratelimit.storage.LimitCheck;
import io.github.ratelimit.storage.StoreKeys;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a bucket costs the heap, measured: the number behind the default bounds of the two
 * partitions ({@link InMemoryRateLimitStore#BYTES_PER_KEY}).
 */
class InMemoryFootprintTests {

	private static final StoreKeys STORE_KEYS = new StoreKeys("rl:");

	private static final int KEYS = 200_000;

	@Test
	void aBucketCostsNoMoreThanTheSizingRuleAssumes() {
		Policy ip = new Policy("anonymous", Dimension.IP, "default", LimitParser.parse("60/1m, 600/1h"));
		Policy backstop = new Policy(PolicyScope.BACKSTOP, Dimension.IP, "default", LimitParser.parse("6000/1m"));
		long before = usedHeap();
		InMemoryRateLimitStore store = new InMemoryRateLimitStore(KEYS, TimeMeter.SYSTEM_NANOTIME);
		for (int i = 0; i < KEYS / 2; i++) {
			// addresses as an IPv6 rotation produces them: one /64 each
			String id = "2001:db8:" + Integer.toHexString(i >> 16) + ":" + Integer.toHexString(i & 0xffff) + "::/64";
			store.decide(List.of(LimitCheck.enforced(ip, STORE_KEYS.key(ip, id), 1),
					LimitCheck.enforced(backstop, STORE_KEYS.key(backstop, id), 1)));
		}
		store.cleanUp();
		long perKey = (usedHeap() - before) / store.size();
		System.out.printf("In-memory store: %d bytes a bucket (%d buckets, key and map entry included)%n", perKey,
				store.size());
		assertThat(store.size()).isEqualTo(KEYS);
		assertThat(perKey).isLessThanOrEqualTo(InMemoryRateLimitStore.BYTES_PER_KEY);
	}

	@Test
	void aQuotaCostsNoMoreThanTheSizingRuleAssumes() {
		// the largest entry of the identified partition: two token buckets and a quota's
		// count
		Policy quota = new Policy("premium", Dimension.ORG, Policy.ALL_GROUPS,
				LimitParser.parse("60/1m, 600/1h, 100000/month"));
		long before = usedHeap();
		InMemoryRateLimitStore store = new InMemoryRateLimitStore(KEYS, TimeMeter.SYSTEM_NANOTIME);
		for (int i = 0; i < KEYS; i++) {
			store.decide(List.of(LimitCheck.enforced(quota, STORE_KEYS.key(quota, "org-" + i), 1)));
		}
		store.cleanUp();
		long perKey = (usedHeap() - before) / store.size();
		System.out.printf("In-memory store: %d bytes a quota (%d buckets, key and map entry included)%n", perKey,
				store.size());
		assertThat(store.identifiedSize()).isEqualTo(KEYS);
		assertThat(perKey).isLessThanOrEqualTo(InMemoryRateLimitStore.BYTES_PER_KEY);
	}

	@Test
	void windowsAndLeakyBucketsCostNoMoreThanTheSizingRuleAssumes() {
		// the counters of the new kinds: a sliding window's three, a leaky bucket's two
		// and a fixed window's count, the largest of them in one entry
		Policy kinds = new Policy("premium", Dimension.ORG, Policy.ALL_GROUPS,
				LimitParser.parse("60/1m sliding, 10/1s leaky, 1000/1h fixed"));
		long before = usedHeap();
		InMemoryRateLimitStore store = new InMemoryRateLimitStore(KEYS, TimeMeter.SYSTEM_NANOTIME);
		for (int i = 0; i < KEYS; i++) {
			store.decide(List.of(LimitCheck.enforced(kinds, STORE_KEYS.key(kinds, "org-" + i), 1)));
		}
		store.cleanUp();
		long perKey = (usedHeap() - before) / store.size();
		System.out.printf(
				"In-memory store: %d bytes a window and leaky bucket (%d buckets, key and map entry " + "included)%n",
				perKey, store.size());
		assertThat(store.identifiedSize()).isEqualTo(KEYS);
		assertThat(perKey).isLessThanOrEqualTo(InMemoryRateLimitStore.BYTES_PER_KEY);
	}

	@Test
	void defaultBoundsKeepTheBucketsWithinAFifthOfTheHeap() {
		long heap = 512L * 1024 * 1024;
		long addresses = InMemoryRateLimitStore.defaultMaxKeys(heap);
		long identified = InMemoryRateLimitStore.defaultMaxIdentifiedKeys(heap);
		assertThat((addresses + identified) * InMemoryRateLimitStore.BYTES_PER_KEY).isLessThanOrEqualTo(heap / 5);
		assertThat(addresses).as("still room for a /48 of IPv6 clients, two buckets each")
			.isGreaterThanOrEqualTo(2 * 65_536);
		assertThat(identified).isGreaterThanOrEqualTo(40_000);
		long large = 64L * 1024 * 1024 * 1024;
		assertThat(InMemoryRateLimitStore.defaultMaxKeys(large)).isEqualTo(750_000);
		assertThat(InMemoryRateLimitStore.defaultMaxIdentifiedKeys(large)).isEqualTo(250_000);
		assertThat(InMemoryRateLimitStore.defaultMaxKeys(1)).isOne();
		assertThat(InMemoryRateLimitStore.defaultMaxIdentifiedKeys(1)).isOne();
	}

	private static long usedHeap() {
		MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
		for (int i = 0; i < 3; i++) {
			System.gc();
		}
		return memory.getHeapMemoryUsage().getUsed();
	}

}
