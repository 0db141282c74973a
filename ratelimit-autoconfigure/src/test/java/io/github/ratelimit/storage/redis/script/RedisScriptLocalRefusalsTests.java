package io.github.ratelimit.storage.redis.script;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.github.ratelimit.core.Decision;
import io.github.ratelimit.core.Outcome;
import io.github.ratelimit.core.RateLimiter;
import io.github.ratelimit.identity.ClientIpResolver;
import io.github.ratelimit.identity.Identifier;
import io.github.ratelimit.policy.Classification;
import io.github.ratelimit.policy.PolicyTable;
import io.github.ratelimit.test.ManualTimeMeter;
import io.github.ratelimit.test.TestRequest;
import io.github.ratelimit.test.redis.RedisMonitor;
import io.github.ratelimit.test.redis.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An attacker hammering one key costs Redis one script call per window once it is spent:
 * the limiter remembers the store's refusal until the window ends, and asks again then.
 */
class RedisScriptLocalRefusalsTests {

	private static final int REQUESTS = 1000;

	private final ManualTimeMeter time = new ManualTimeMeter(Instant.parse("2026-03-01T10:00:00Z"));

	private final ScriptStores stores = new ScriptStores("localRefusals");

	private final PolicyTable table = PolicyTable
		.build(Map.of("anonymous", Map.of("ip", Map.of("default", "10/1m fixed"))), Map.of(), Set.of());

	@AfterEach
	void close() throws Exception {
		this.stores.close();
	}

	@Test
	void anAttackerHammeringOneKeyCostsOneScriptCallPerWindowOnceSpent() {
		RedisScriptRateLimitStore store = this.stores.connected(RedisScriptRateLimitStore.DEFAULT_LEASE_TIME,
				this.time::millis);
		RateLimiter limiter = RateLimiter
			.builder(new Identifier(List.of(), new ClientIpResolver(List.of(), 32, 64), this.table.tiers(), "anonymous",
					"authenticated"), store)
			.policies(this.table)
			.storeKeys(this.stores.keys())
			.clock(this.time)
			.build();
		try (RedisMonitor monitor = RedisMonitor.start(RedisTestServer.host(), RedisTestServer.port())) {
			for (int window = 0; window < 3; window++) {
				int admitted = 0;
				for (int i = 0; i < REQUESTS; i++) {
					// the blocking and the non-blocking path alike
					Decision decision = (i % 2 == 0)
							? limiter.decide(TestRequest.from("203.0.113.66"), Classification.of("default", 1))
							: limiter.decideAsync(TestRequest.from("203.0.113.66"), Classification.of("default", 1))
								.join();
					if (decision.outcome() == Outcome.ALLOWED) {
						admitted++;
					}
					else {
						assertThat(decision.outcome()).isEqualTo(Outcome.REJECTED);
						assertThat(((Decision.Rejected) decision).retryAfterSeconds()).isEqualTo(60);
					}
				}
				assertThat(admitted).isEqualTo(10);
				this.time.advance(Duration.ofMinutes(1));
			}
			// 10 admissions and one refusal per window; the other 990 refusals were local
			long expected = 3 * 11;
			await().atMost(Duration.ofSeconds(5)).until(() -> scriptCalls(monitor) >= expected);
			assertThat(scriptCalls(monitor)).isEqualTo(expected);
			assertThat(limiter.localRefusals().refused()).isEqualTo(3 * (REQUESTS - 11));
		}
	}

	private long scriptCalls(RedisMonitor monitor) {
		return monitor.commands(this.stores.prefix())
			.stream()
			.filter((command) -> !command.fromScript())
			.filter((command) -> command.name().startsWith("EVAL"))
			.count();
	}

}
