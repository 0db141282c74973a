package io.github.ratelimit.core;

import java.lang.management.ManagementFactory;
import java.lang.ref.Reference;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.github.ratelimit.control.BanRules;
import io.github.ratelimit.control.RuntimeControl;
import io.github.ratelimit.identity.ClientIpResolver;
import io.github.ratelimit.identity.Identifier;
import io.github.ratelimit.policy.Classification;
import io.github.ratelimit.policy.PolicyRegistry;
import io.github.ratelimit.policy.PolicyTable;
import io.github.ratelimit.storage.memory.InMemoryControlStore;
import io.github.ratelimit.storage.memory.InMemoryRateLimitStore;
import io.github.ratelimit.test.ManualTimeMeter;
import io.github.ratelimit.test.TestRequest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A flood from 1,000,000 distinct client addresses, through the limiter, into the
 * in-memory store and the in-memory ban counts: both stay within their bounds, and so
 * does the heap they retain. (Unbounded, the buckets alone would hold about 500 MB.)
 */
class MillionAddressesMemoryBoundTests {

	private static final int ADDRESSES = 1_000_000;

	private static final long MAX_KEYS = 20_000;

	private static final long MAX_SUBJECTS = 10_000;

	@Test
	void aMillionAddressesStayWithinTheConfiguredBounds() {
		ManualTimeMeter time = new ManualTimeMeter(Instant.parse("2026-03-01T10:00:00Z"));
		PolicyTable table = PolicyTable.build(Map.of("anonymous", Map.of("ip", Map.of("default", "1/1h"))),
				Map.of("default", "1000/1h"), Set.of());
		long before = usedHeap();
		InMemoryRateLimitStore store = new InMemoryRateLimitStore(MAX_KEYS, time, time);
		InMemoryControlStore controlStore = new InMemoryControlStore(time, MAX_SUBJECTS);
		RuntimeControl control = new RuntimeControl(controlStore, new PolicyRegistry(table), List.of(),
				new BanRules(new BanRules.Settings(5, null, null, null, null), Map.of(), Map.of()), time,
				Duration.ofSeconds(1));
		RateLimiter limiter = RateLimiter
			.builder(new Identifier(List.of(), new ClientIpResolver(List.of(), 32, 64), table.tiers(), "anonymous",
					"authenticated"), store)
			.control(control)
			.clock(time)
			.build();
		Classification classification = Classification.of("default", 1);
		int refused = 0;
		for (int i = 0; i < ADDRESSES; i++) {
			String address = "10." + ((i >> 16) & 255) + "." + ((i >> 8) & 255) + "." + (i & 255);
			limiter.decide(TestRequest.from(address), classification);
			// every other address tries again and is refused: a refusal count (towards a
			// ban) for each
			if ((i & 1) == 0
					&& limiter.decide(TestRequest.from(address), classification).outcome() == Outcome.REJECTED) {
				refused++;
			}
		}
		store.cleanUp();
		long retained = usedHeap() - before;
		System.out.printf("1,000,000 addresses: %d buckets kept, %d MB retained%n", store.size(), retained >> 20);
		// Caffeine's admission policy may drop a bucket as soon as it is made, when the
		// map is full of others:
		// such a caller's second request finds a full bucket again (the documented cost
		// of the bound)
		assertThat(refused).isGreaterThan(ADDRESSES / 2 * 9 / 10);
		assertThat(store.size()).isLessThanOrEqualTo(MAX_KEYS);
		// the buckets' bound at the sizing rule's 600 bytes, the ban counts' at the same,
		// and room for the JVM
		long bound = (MAX_KEYS + MAX_SUBJECTS) * InMemoryRateLimitStore.BYTES_PER_KEY + (32L << 20);
		assertThat(retained).isLessThanOrEqualTo(bound);
		// the limiter still works for a new caller once the flood is over
		assertThat(limiter.decide(TestRequest.from("192.0.2.1"), classification).outcome()).isEqualTo(Outcome.ALLOWED);
		// both stores must still be reachable when the heap is measured
		Reference.reachabilityFence(store);
		Reference.reachabilityFence(controlStore);
	}

	private static long usedHeap() {
		for (int i = 0; i < 3; i++) {
			System.gc();
		}
		return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
	}

}
