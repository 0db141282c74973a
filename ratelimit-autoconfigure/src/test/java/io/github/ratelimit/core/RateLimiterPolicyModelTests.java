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
 * Modes, soft limits and waiting as the limiter decides them, over the in-memory store
 * with a manual clock.
 */
class RateLimiterPolicyModelTests {

	private final ManualTimeMeter time = new ManualTimeMeter();

	private final InMemoryRateLimitStore store = new InMemoryRateLimitStore(10_000, this.time);

	private final PolicyOptions options = new PolicyOptions(ZoneOffset.UTC, Mode.ENFORCE, 0, Map.of(),
			Map.of("observed", new GroupOptions(new Tuning(Mode.OBSERVE, null), 0, Duration.ZERO), "warned",
					new GroupOptions(new Tuning(Mode.WARN, null), 0, Duration.ZERO), "soft",
					new GroupOptions(new Tuning(null, 50), 0, Duration.ZERO), "patient",
					new GroupOptions(new Tuning(null, null), 0, Duration.ofMillis(500))));

	private final PolicyTable table = PolicyTable.build(
			Map.of("anonymous", Map.of("ip", Map.of("default", "2/1m", "soft", "4/1m", "patient", "2/1s"))),
			Map.of("default", "1000/1m"), Set.of("observed", "warned", "soft", "patient"), this.options);

	private RateLimiter limiter(int maxWaiting) {
		Identifier identifier = new Identifier(List.of(), new ClientIpResolver(List.of(), 32, 64), this.table.tiers(),
				"anonymous", "authenticated");
		return RateLimiter.builder(identifier, this.store)
			.policies(this.table)
			.clock(Clock.fixed(Instant.parse("2026-01-17T12:34:00Z"), ZoneOffset.UTC))
			.maxWaiting(maxWaiting)
			.build();
	}

	private final RateLimiter limiter = limiter(RateLimiter.DEFAULT_MAX_WAITING);

	private Decision decide(RateLimiter limiter, String address, String group) {
		return limiter.decide(TestRequest.from(address), Classification.of(group, 1));
	}

	@Test
	void observedGroupNeverRefusesNorShowsButRecordsWouldBeRefusals() {
		for (int i = 0; i < 2; i++) {
			Decision.Allowed decision = Decisions.allowed(decide(this.limiter, "203.0.113.1", "observed"));
			assertThat(decision.observed()).isEmpty();
		}
		Decision.Allowed over = Decisions.allowed(decide(this.limiter, "203.0.113.1", "observed"));
		// the default limit (2/1m) and the backstop both apply to the group, both
		// observed: nothing to show
		assertThat(over.limits().binding()).isNull();
		assertThat(over.limits().states()).isEmpty();
		assertThat(over.observed()).singleElement()
			.satisfies((state) -> assertThat(state.name()).isEqualTo("anonymous-ip-default"));
		assertThat(over.wouldHaveBeenRefused()).isTrue();
		// the default bucket it shares with the enforced groups was spent by the observed
		// requests' first two
		assertThat(decide(this.limiter, "203.0.113.1", "default").outcome()).isEqualTo(Outcome.REJECTED);
	}

	@Test
	void warnedGroupAdmitsWithTheHeadersStateAndAnOverLimitWarning() {
		decide(this.limiter, "203.0.113.2", "warned");
		decide(this.limiter, "203.0.113.2", "warned");
		Decision.Allowed over = Decisions.allowed(decide(this.limiter, "203.0.113.2", "warned"));
		assertThat(over.limits().binding().name()).isEqualTo("anonymous-ip-default");
		assertThat(over.limits().binding().remaining()).isZero();
		assertThat(over.limits().warnings()).singleElement().satisfies((warning) -> {
			assertThat(warning.overLimit()).isTrue();
			assertThat(warning.state().name()).isEqualTo("anonymous-ip-default");
		});
		assertThat(over.wouldHaveBeenRefused()).isTrue();
	}

	@Test
	void softLimitWarnsFromTheThresholdAndRefusesOnlyAtTheLimit() {
		// soft: 4 a minute, warn-at 50%: remaining 3 is quiet, 2 and below warn
		Decision first = decide(this.limiter, "203.0.113.3", "soft");
		assertThat(first.limits().warnings()).isEmpty();
		for (int remaining = 2; remaining >= 0; remaining--) {
			Decision decision = decide(this.limiter, "203.0.113.3", "soft");
			assertThat(decision.outcome()).isEqualTo(Outcome.ALLOWED);
			long expected = remaining;
			assertThat(decision.limits().warnings()).singleElement().satisfies((warning) -> {
				assertThat(warning.overLimit()).isFalse();
				assertThat(warning.state().remaining()).isEqualTo(expected);
			});
		}
		assertThat(decide(this.limiter, "203.0.113.3", "soft").outcome()).isEqualTo(Outcome.REJECTED);
	}

	@Test
	void blockingLimitInAnObservedGroupBlocksNothing() {
		PolicyTable table = PolicyTable.build(Map.of("anonymous", Map.of("ip", Map.of("observed", "0"))), Map.of(),
				Set.of("observed"), this.options);
		Identifier identifier = new Identifier(List.of(), new ClientIpResolver(List.of(), 32, 64), table.tiers(),
				"anonymous", "authenticated");
		RateLimiter limiter = RateLimiter.builder(identifier, this.store).policies(table).build();
		assertThat(limiter.decide(TestRequest.from("203.0.113.4"), Classification.of("observed", 1)).outcome())
			.isEqualTo(Outcome.UNLIMITED);
	}

	@Test
	void requestThatWouldGetItsTokenWithinMaxWaitWaitsInsteadOfBeingRefused() {
		// patient: 2 a second, max-wait 500ms: the third request waits 500ms, the fourth
		// would wait 1s
		decide(this.limiter, "203.0.113.5", "patient");
		decide(this.limiter, "203.0.113.5", "patient");
		Decision.Allowed waiting = Decisions.allowed(decide(this.limiter, "203.0.113.5", "patient"));
		assertThat(waiting.waitMillis()).isBetween(1L, 500L);
		assertThat(this.limiter.waiting()).isEqualTo(1);
		assertThat(decide(this.limiter, "203.0.113.5", "patient")).isInstanceOf(Decision.Rejected.class);
		waiting.completion().waitOver();
		waiting.completion().responseDone();
		assertThat(this.limiter.waiting()).isZero();
	}

	@Test
	void beyondTheWaitingBoundARequestIsRefusedAtOnce() {
		RateLimiter limiter = limiter(1);
		decide(limiter, "203.0.113.6", "patient");
		decide(limiter, "203.0.113.6", "patient");
		Decision.Allowed waiting = Decisions.allowed(decide(limiter, "203.0.113.6", "patient"));
		assertThat(waiting.waitMillis()).isPositive();
		// another caller's request would wait too, but the one waiting slot is taken
		decide(limiter, "203.0.113.7", "patient");
		decide(limiter, "203.0.113.7", "patient");
		assertThat(decide(limiter, "203.0.113.7", "patient").outcome()).isEqualTo(Outcome.REJECTED);
		waiting.completion().waitOver();
		this.time.advance(Duration.ofSeconds(2));
		decide(limiter, "203.0.113.8", "patient");
		decide(limiter, "203.0.113.8", "patient");
		assertThat(Decisions.allowed(decide(limiter, "203.0.113.8", "patient")).waitMillis())
			.as("the slot is free again")
			.isPositive();
	}

}
