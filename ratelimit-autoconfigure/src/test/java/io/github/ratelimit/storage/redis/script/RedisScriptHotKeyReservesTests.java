package io.github.ratelimit.storage.redis.script;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.github.ratelimit.core.Decision;
import io.github.ratelimit.core.Outcome;
import io.github.ratelimit.core.RateLimiter;
import io.github.ratelimit.identity.ClientIpResolver;
import io.github.ratelimit.identity.Identifier;
import io.github.ratelimit.policy.Classification;
import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.policy.PolicyTable;
import io.github.ratelimit.storage.LimitCheck;
import io.github.ratelimit.test.ManualTimeMeter;
import io.github.ratelimit.test.StoreFailureAssertions;
import io.github.ratelimit.test.TestRequest;
import io.github.ratelimit.test.redis.RedisMonitor;
import io.github.ratelimit.test.redis.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Hot buckets on a real Redis: one busy client costs a fraction of a script call per
 * request, and two instances hammering one bucket together from many threads admit
 * exactly what the limit holds, never more, with every token taken either spent or held
 * (and given back after the hold).
 */
class RedisScriptHotKeyReservesTests {

	private static final String CLIENT = "203.0.113.9";

	private final ManualTimeMeter time = new ManualTimeMeter(Instant.parse("2026-03-01T10:00:00Z"));

	private final ScriptStores stores = new ScriptStores("hotKeys");

	// busy: reserves of 100; exact: reserves of 20 (a hundredth of 2000)
	private final PolicyTable table = PolicyTable.build(
			Map.of("anonymous", Map.of("ip", Map.of("default", "100000/1d", "exact", "2000/1d"))), Map.of(),
			Set.of("exact"));

	@AfterEach
	void close() throws Exception {
		this.stores.close();
	}

	private RateLimiter limiter() {
		RedisScriptRateLimitStore store = this.stores.connected(RedisScriptRateLimitStore.DEFAULT_LEASE_TIME,
				this.time::millis);
		return RateLimiter
			.builder(new Identifier(List.of(), new ClientIpResolver(List.of(), 32, 64), this.table.tiers(), "anonymous",
					"authenticated"), store)
			.policies(this.table)
			.storeKeys(this.stores.keys())
			.clock(this.time)
			.build();
	}

	private static Decision request(RateLimiter limiter, String group, boolean async) {
		return async ? limiter.decideAsync(TestRequest.from(CLIENT), Classification.of(group, 1)).join()
				: limiter.decide(TestRequest.from(CLIENT), Classification.of(group, 1));
	}

	@Test
	void aBusyClientCostsAFractionOfAScriptCallPerRequest() {
		RateLimiter limiter = limiter();
		try (RedisMonitor monitor = RedisMonitor.start(RedisTestServer.host(), RedisTestServer.port())) {
			for (int i = 0; i < 2000; i++) {
				// the blocking and the non-blocking path alike
				assertThat(request(limiter, "default", i % 2 == 1).outcome()).isEqualTo(Outcome.ALLOWED);
			}
			// a hundred calls make the bucket hot, then about one per reserve of 100
			await().atMost(Duration.ofSeconds(5)).until(() -> scriptCalls(monitor) >= 100);
			assertThat(scriptCalls(monitor)).isLessThan(200);
			assertThat(limiter.hotKeyReserves().admitted()).isGreaterThan(1800);
			StoreFailureAssertions.assertNoDecisionFellBack(limiter);
		}
	}

	@Test
	void twoInstancesOnManyThreadsAdmitExactlyTheLimitAndHoldOrSpendEveryTokenTaken() throws Exception {
		RateLimiter first = limiter();
		RateLimiter second = limiter();
		ExecutorService threads = Executors.newFixedThreadPool(8);
		List<Callable<Integer>> callers = new ArrayList<>();
		for (int t = 0; t < 8; t++) {
			RateLimiter limiter = (t % 2 == 0) ? first : second;
			boolean async = t % 4 < 2;
			callers.add(() -> {
				int admitted = 0;
				for (int i = 0; i < 800; i++) {
					if (request(limiter, "exact", async).outcome() == Outcome.ALLOWED) {
						admitted++;
					}
				}
				return admitted;
			});
		}
		int admitted = 0;
		try {
			for (Future<Integer> result : threads.invokeAll(callers)) {
				admitted += result.get();
			}
		}
		finally {
			threads.shutdownNow();
		}
		assertThat(admitted).isLessThanOrEqualTo(2000);
		assertThat(first.hotKeyReserves().admitted() + second.hotKeyReserves().admitted()).isPositive();
		// every decision was Redis's or a reserve's: none took the failure mode
		StoreFailureAssertions.assertNoDecisionFellBack(first);
		StoreFailureAssertions.assertNoDecisionFellBack(second);
		// the time stands still: every token Redis gave is spent or held (refills in
		// flight land first)
		int spent = admitted;
		await().atMost(Duration.ofSeconds(5))
			.until(() -> spent + first.hotKeyReserves().held() + second.hotKeyReserves().held() == 2000);
		long held = first.hotKeyReserves().held() + second.hotKeyReserves().held();
		// after the hold, what the instances held goes back to Redis
		this.time.advance(Duration.ofSeconds(2));
		first.hotKeyReserves().sweep(this.time.millis());
		second.hotKeyReserves().sweep(this.time.millis());
		assertThat(first.hotKeyReserves().held() + second.hotKeyReserves().held()).isZero();
		await().atMost(Duration.ofSeconds(5)).until(() -> remaining(first, "exact") == held);
	}

	// what Redis holds of the client's bucket in a group, read without taking anything
	private long remaining(RateLimiter limiter, String group) {
		Policy policy = this.table.policies("anonymous", group).get(0);
		LimitCheck check = new LimitCheck(policy, this.stores.keys().key(policy, CLIENT), 0, true);
		RedisScriptRateLimitStore store = this.stores.connected(RedisScriptRateLimitStore.DEFAULT_LEASE_TIME,
				this.time::millis);
		return store.inspect(List.of(check)).get(0).bandwidths().get(0).remaining();
	}

	private long scriptCalls(RedisMonitor monitor) {
		return monitor.commands(this.stores.prefix())
			.stream()
			.filter((command) -> !command.fromScript())
			.filter((command) -> command.name().startsWith("EVAL"))
			.count();
	}

}
