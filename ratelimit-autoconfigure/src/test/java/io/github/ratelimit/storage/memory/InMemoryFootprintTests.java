package io.github.ratelimit.storage.memory;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.List;

import io.github.bucket4j.TimeMeter;
import org.junit.jupiter.api.Test;

import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.LimitParser;
import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.storage.LimitCheck;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a bucket costs the heap, measured: the number behind the default bound of the map
 * ({@link InMemoryRateLimitStore#BYTES_PER_KEY}).
 */
class InMemoryFootprintTests {

	private static final int KEYS = 200_000;

	@Test
	void aBucketCostsNoMoreThanTheSizingRuleAssumes() {
		Policy ip = new Policy("anonymous", Dimension.IP, "default", LimitParser.parse("60/1m, 600/1h"), "rl:");
		Policy backstop = new Policy("backstop", Dimension.IP, "default", LimitParser.parse("6000/1m"), "rl:");
		long before = usedHeap();
		InMemoryRateLimitStore store = new InMemoryRateLimitStore(KEYS, TimeMeter.SYSTEM_NANOTIME);
		for (int i = 0; i < KEYS / 2; i++) {
			// addresses as an IPv6 rotation produces them: one /64 each
			String id = "2001:db8:" + Integer.toHexString(i >> 16) + ":" + Integer.toHexString(i & 0xffff) + "::/64";
			store.decide(List.of(LimitCheck.enforced(ip, ip.storeKey(id), 1),
					LimitCheck.enforced(backstop, backstop.storeKey(id), 1)));
		}
		store.cleanUp();
		long perKey = (usedHeap() - before) / store.size();
		System.out.printf("In-memory store: %d bytes a bucket (%d buckets, key and map entry included)%n", perKey,
				store.size());
		assertThat(store.size()).isEqualTo(KEYS);
		assertThat(perKey).isLessThanOrEqualTo(InMemoryRateLimitStore.BYTES_PER_KEY);
	}

	@Test
	void defaultBoundKeepsTheBucketsWithinAFifthOfTheHeap() {
		long heap = 512L * 1024 * 1024;
		long keys = InMemoryRateLimitStore.defaultMaxKeys(heap);
		assertThat(keys * InMemoryRateLimitStore.BYTES_PER_KEY).isLessThanOrEqualTo(heap / 5);
		assertThat(keys).as("still room for a /48 of IPv6 clients, two buckets each").isGreaterThanOrEqualTo(2 * 65_536);
		assertThat(InMemoryRateLimitStore.defaultMaxKeys(64L * 1024 * 1024 * 1024)).isEqualTo(1_000_000);
	}

	private static long usedHeap() {
		MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
		for (int i = 0; i < 3; i++) {
			System.gc();
		}
		return memory.getHeapMemoryUsage().getUsed();
	}

}
