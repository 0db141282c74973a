package io.github.ratelimit.core;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import io.github.ratelimit.identity.ClientIpResolver;
import io.github.ratelimit.identity.Identifier;
import io.github.ratelimit.load.InFlightRequests;
import io.github.ratelimit.load.LimitFactors;
import io.github.ratelimit.load.LoadShedder;
import io.github.ratelimit.load.Priority;
import io.github.ratelimit.load.ScaledPolicies;
import io.github.ratelimit.load.Threshold;
import io.github.ratelimit.policy.Classification;
import io.github.ratelimit.policy.LimitParser;
import io.github.ratelimit.policy.PolicyOptions;
import io.github.ratelimit.policy.PolicyTable;
import io.github.ratelimit.storage.memory.InMemoryRateLimitStore;
import io.github.ratelimit.test.ManualTimeMeter;
import io.github.ratelimit.test.TestRequest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The limiter under load: a shed request is refused before any limit is checked (its
 * budgets untouched), never by the gate before authentication nor on an excluded path;
 * limits scaled by load or warm-up are decided and reported at the size in force. Over
 * the in-memory store with a manual clock.
 */
class RateLimiterLoadTests {

	private final ManualTimeMeter time = new ManualTimeMeter();

	private final InMemoryRateLimitStore store = new InMemoryRateLimitStore(10_000, this.time);

	private final PolicyTable table = PolicyTable.of(
			Map.of("anonymous", Map.of("ip", Map.of("default", LimitParser.parse("4/1h")))), Map.of(), Map.of(),
			Set.of("checkout"), PolicyOptions.DEFAULTS);

	private final AtomicReference<Double> load = new AtomicReference<>(0.0);

	private final LoadShedder shedder = new LoadShedder(this.load::get, Map.of("anonymous", Priority.LOW),
			Map.of("checkout", Priority.CRITICAL), List.of(new LoadShedder.Step(Priority.LOW, new Threshold(0.8, 0.6))),
			Duration.ofSeconds(3));

	@Test
	void aShedRequestIsRefusedBeforeItsLimitsAndKeepsItsBudget() {
		RateLimiter limiter = limiter(this.shedder, null);
		this.load.set(0.9);
		Decision shed = decide(limiter, "default");
		assertThat(shed).isInstanceOfSatisfying(Decision.Shed.class, (refusal) -> {
			assertThat(refusal.priority()).isEqualTo(Priority.LOW);
			assertThat(refusal.retryAfterSeconds()).isEqualTo(3);
			assertThat(refusal.outcome()).isEqualTo(Outcome.SHED);
		});
		// critical traffic is never shed
		assertThat(decide(limiter, "checkout").outcome()).isEqualTo(Outcome.ALLOWED);
		// the gate before authentication never sheds: it does not know the tier yet
		assertThat(limiter.decide(TestRequest.from("203.0.113.1"), Classification.of("default", 1),
				CheckScope.OUTCOME_COUNTED))
			.isNotInstanceOf(Decision.Shed.class);
		assertThat(limiter.decide(TestRequest.from("203.0.113.1"), Classification.EXCLUDED).outcome())
			.isEqualTo(Outcome.UNLIMITED);
		this.load.set(0.7);
		assertThat(decide(limiter, "default")).as("within the hysteresis").isInstanceOf(Decision.Shed.class);
		this.load.set(0.5);
		// 4 an hour, of which checkout took one
		for (int i = 1; i <= 3; i++) {
			assertThat(decide(limiter, "default").outcome()).as("request %d", i).isEqualTo(Outcome.ALLOWED);
		}
		assertThat(decide(limiter, "default").outcome()).isEqualTo(Outcome.REJECTED);
	}

	@Test
	void scaledLimitsAreDecidedAndReportedAtTheirSizeInForce() {
		LimitFactors factors = new LimitFactors(this.time, Duration.ofSeconds(30), 0.5, null, null, Map.of());
		RateLimiter limiter = limiter(null, new ScaledPolicies(factors));
		Decision first = decide(limiter, "default");
		assertThat(first.limits().binding().limit()).isEqualTo(2);
		assertThat(first.limits().binding().name()).isEqualTo("anonymous-ip-default");
		assertThat(decide(limiter, "default").outcome()).isEqualTo(Outcome.ALLOWED);
		Decision refused = decide(limiter, "default");
		assertThat(refused.outcome()).isEqualTo(Outcome.REJECTED);
		assertThat(refused.limits().binding().limit()).isEqualTo(2);
		this.time.advance(Duration.ofSeconds(30));
		// the same bucket, grown to its configured size: the two spent stay spent
		Decision grown = decide(limiter, "default");
		assertThat(grown.outcome()).isEqualTo(Outcome.REJECTED);
		assertThat(grown.limits().binding().limit()).isEqualTo(4);
	}

	@Test
	void refusalsRememberedUnderAShrunkLimitAreForgottenWhenItGrowsBack() {
		LimitFactors factors = new LimitFactors(this.time, Duration.ZERO, 1.0, this.load::get, new Threshold(0.9, 0.75),
				Map.of("anonymous", 0.5));
		CountingRemoteStore remote = new CountingRemoteStore(this.store);
		RateLimiter limiter = RateLimiter.builder(identifier(), remote)
			.policies(this.table)
			.clock(this.time)
			.load(new InFlightRequests(), null, new ScaledPolicies(factors))
			.build();
		this.load.set(0.95);
		assertThat(decide(limiter, "default").outcome()).isEqualTo(Outcome.ALLOWED);
		assertThat(decide(limiter, "default").outcome()).isEqualTo(Outcome.ALLOWED);
		assertThat(decide(limiter, "default").outcome()).isEqualTo(Outcome.REJECTED);
		// refused by the store under 2 an hour, then from memory
		assertThat(decide(limiter, "default").outcome()).isEqualTo(Outcome.REJECTED);
		assertThat(remote.calls).isEqualTo(3);
		this.load.set(0.5);
		// 4 an hour again: the store is asked, not the refusal remembered under 2
		Decision grown = decide(limiter, "default");
		assertThat(remote.calls).isEqualTo(4);
		assertThat(grown.limits().binding().limit()).isEqualTo(4);
	}

	@Test
	void theLimiterCountsNothingInFlightByItself() {
		InFlightRequests inFlight = new InFlightRequests();
		RateLimiter limiter = RateLimiter.builder(identifier(), this.store)
			.policies(this.table)
			.clock(this.time)
			.load(inFlight, null, null)
			.build();
		assertThat(limiter.inFlight()).isSameAs(inFlight);
		decide(limiter, "default");
		assertThat(inFlight.count()).isZero();
	}

	private RateLimiter limiter(LoadShedder shedder, ScaledPolicies scaled) {
		return RateLimiter.builder(identifier(), this.store)
			.policies(this.table)
			.clock(this.time)
			.load(new InFlightRequests(), shedder, scaled)
			.build();
	}

	private Identifier identifier() {
		return new Identifier(List.of(), new ClientIpResolver(List.of(), 32, 64), this.table.tiers(), "anonymous",
				"authenticated");
	}

	private static Decision decide(RateLimiter limiter, String group) {
		return limiter.decide(TestRequest.from("203.0.113.1"), Classification.of(group, 1));
	}

}
