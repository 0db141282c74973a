package io.github.ratelimit.core;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.github.ratelimit.identity.ClientIpResolver;
import io.github.ratelimit.identity.Identifier;
import io.github.ratelimit.policy.Classification;
import io.github.ratelimit.policy.CountedResponses;
import io.github.ratelimit.policy.Mode;
import io.github.ratelimit.policy.PolicyOptions;
import io.github.ratelimit.policy.PolicyOptions.GroupOptions;
import io.github.ratelimit.policy.PolicyOptions.Tuning;
import io.github.ratelimit.policy.PolicyTable;
import io.github.ratelimit.storage.memory.InMemoryRateLimitStore;
import io.github.ratelimit.test.ManualTimeMeter;
import io.github.ratelimit.test.TestRequest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A request decided in two parts: the gate before authentication decides the client
 * address's limits that count by outcome, and the filter after it decides the rest,
 * leaving out what the gate decided.
 */
class RateLimiterDecidedBeforeTests {

	private final ManualTimeMeter time = new ManualTimeMeter();

	private final InMemoryRateLimitStore store = new InMemoryRateLimitStore(10_000, this.time);

	private final PolicyTable table = PolicyTable.build(
			Map.of("anonymous", Map.of("ip", Map.of("default", "100/1m", "login", "3/1m"))), Map.of(), Set.of("login"),
			new PolicyOptions(ZoneOffset.UTC, Mode.ENFORCE, 0, Map.of(), Map.of("login",
					new GroupOptions(new Tuning(null, null), 0, Duration.ZERO, CountedResponses.FAILURES))));

	private final RateLimiter limiter = RateLimiter
		.builder(new Identifier(List.of(), new ClientIpResolver(List.of(), 32, 64), this.table.tiers(), "anonymous",
				"anonymous"), this.store)
		.policies(this.table)
		.clock(Clock.fixed(Instant.parse("2026-01-17T12:34:00Z"), ZoneOffset.UTC))
		.build();

	private final Classification login = Classification.of("login", 1);

	@Test
	void theLimitsTheGateDecidedAreLeftOutAfterAuthentication() {
		for (int i = 0; i < 3; i++) {
			Decision gate = this.limiter.decide(TestRequest.from("203.0.113.7"), this.login,
					CheckScope.OUTCOME_COUNTED);
			assertThat(gate.limits().states()).extracting(PolicyState::name).containsExactly("anonymous-ip-login");
			Decision after = this.limiter.decide(TestRequest.from("203.0.113.7"), this.login,
					RateLimiter.decidedLimits(gate));
			assertThat(after.limits().states()).extracting(PolicyState::name).doesNotContain("anonymous-ip-login");
			// nothing of the login group is left to decide after authentication
			assertThat(after).isInstanceOf(Decision.Unlimited.class);
			Decisions.allowed(gate).completion().responseDone(401);
		}
		// counted once per attempt: three failures spend a budget of three, no more
		assertThat(
				this.limiter.decide(TestRequest.from("203.0.113.7"), this.login, CheckScope.OUTCOME_COUNTED).outcome())
			.isEqualTo(Outcome.REJECTED);
	}

	@Test
	void withNothingDecidedBeforeEveryLimitIsDecided() {
		Decision whole = this.limiter.decide(TestRequest.from("203.0.113.8"), this.login, Set.of());
		assertThat(whole.limits().states()).extracting(PolicyState::name).contains("anonymous-ip-login");
	}

}
