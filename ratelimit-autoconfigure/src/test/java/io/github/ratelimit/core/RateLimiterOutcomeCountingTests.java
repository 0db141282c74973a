package io.github.ratelimit.core;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.github.ratelimit.control.BanRules;
import io.github.ratelimit.control.RuntimeControl;
import io.github.ratelimit.identity.ClientIpResolver;
import io.github.ratelimit.identity.Identifier;
import io.github.ratelimit.policy.Classification;
import io.github.ratelimit.policy.CountedResponses;
import io.github.ratelimit.policy.Mode;
import io.github.ratelimit.policy.PolicyOptions;
import io.github.ratelimit.policy.PolicyOptions.GroupOptions;
import io.github.ratelimit.policy.PolicyOptions.Tuning;
import io.github.ratelimit.policy.PolicyRegistry;
import io.github.ratelimit.policy.PolicyTable;
import io.github.ratelimit.storage.memory.InMemoryControlStore;
import io.github.ratelimit.storage.memory.InMemoryRateLimitStore;
import io.github.ratelimit.test.ManualTimeMeter;
import io.github.ratelimit.test.TestRequest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Limits that count only some responses, in the limiter: the token is taken when the
 * request is decided, and the request's completion gives it back when the final status is
 * not counted.
 */
class RateLimiterOutcomeCountingTests {

	private final ManualTimeMeter time = new ManualTimeMeter();

	private final InMemoryRateLimitStore store = new InMemoryRateLimitStore(10_000, this.time);

	private final PolicyTable table = PolicyTable.build(
			Map.of("anonymous", Map.of("ip", Map.of("default", "100/1m", "login", "3/1m", "pin", "3/1m"))), Map.of(),
			Set.of("login", "pin"), new PolicyOptions(ZoneOffset.UTC, Mode.ENFORCE, 0, Map.of(), Map.of("login",
					counting(CountedResponses.FAILURES), "pin", counting(CountedResponses.parse(List.of("401"))))));

	private static GroupOptions counting(CountedResponses counts) {
		return new GroupOptions(new Tuning(null, null), 0, Duration.ZERO, counts);
	}

	private final RateLimiter limiter = RateLimiter
		.builder(new Identifier(List.of(), new ClientIpResolver(List.of(), 32, 64), this.table.tiers(), "anonymous",
				"anonymous"), this.store)
		.policies(this.table)
		.clock(Clock.fixed(Instant.parse("2026-01-17T12:34:00Z"), ZoneOffset.UTC))
		.build();

	private Decision attempt(String group) {
		return this.limiter.decide(TestRequest.from("203.0.113.7"), Classification.of(group, 1));
	}

	@Test
	void aSuccessGivesItsTokenBackAndAFailureKeepsIt() {
		for (int i = 0; i < 10; i++) {
			Decision success = attempt("login");
			assertThat(success.outcome()).isEqualTo(Outcome.ALLOWED);
			// remaining counts the reservation in flight
			assertThat(success.limits().binding().remaining()).isEqualTo(2);
			Decisions.allowed(success).completion().responseDone(200);
		}
		for (int i = 2; i >= 0; i--) {
			Decision failure = attempt("login");
			assertThat(failure.limits().binding().remaining()).isEqualTo(i);
			Decisions.allowed(failure).completion().responseDone(401);
		}
		assertThat(Decisions.rejected(attempt("login")).retryAfterSeconds()).isEqualTo(20);
	}

	@Test
	void reservationsInFlightCountUntilTheirResponsesAreDone() {
		Decision first = attempt("login");
		Decision second = attempt("login");
		Decision third = attempt("login");
		// three attempts in flight hold the whole budget: a fourth is refused whatever
		// its outcome would be
		assertThat(attempt("login").outcome()).isEqualTo(Outcome.REJECTED);
		Decisions.allowed(first).completion().responseDone(204);
		assertThat(attempt("login").outcome()).isEqualTo(Outcome.ALLOWED);
		Decisions.allowed(second).completion().responseDone(500);
		Decisions.allowed(third).completion().responseDone(403);
		assertThat(attempt("login").outcome()).isEqualTo(Outcome.REJECTED);
	}

	@Test
	void aTokenGoesBackOnceHoweverOftenTheResponseIsReported() {
		Decision first = attempt("login");
		attempt("login");
		attempt("login");
		Decisions.allowed(first).completion().responseDone(200);
		Decisions.allowed(first).completion().responseDone(200);
		Decisions.allowed(first).completion().responseDone();
		assertThat(attempt("login").outcome()).isEqualTo(Outcome.ALLOWED);
		assertThat(attempt("login").outcome()).isEqualTo(Outcome.REJECTED);
	}

	@Test
	void anUnknownOutcomeStaysCountedAndARequestThatNeverRanDoesNot() {
		Decision unknown = attempt("login");
		Decisions.allowed(unknown).completion().responseDone();
		Decision notRun = attempt("login");
		Decisions.allowed(notRun).completion().responseDone(Completion.NOT_RUN);
		assertThat(attempt("login").limits().binding().remaining()).isEqualTo(1);
	}

	@Test
	void listedStatusesAreTheOnlyOnesCounted() {
		for (int i = 0; i < 5; i++) {
			// a 403 is a failure, but not one this group counts
			Decisions.allowed(attempt("pin")).completion().responseDone(403);
		}
		for (int i = 0; i < 3; i++) {
			Decisions.allowed(attempt("pin")).completion().responseDone(401);
		}
		assertThat(attempt("pin").outcome()).isEqualTo(Outcome.REJECTED);
	}

	@Test
	void limitsThatCountEveryResponseHoldNothingToSettle() {
		Decision decision = attempt("default");
		assertThat(Decisions.allowed(decision).completion()).isSameAs(Completion.NONE);
		assertThat(Decisions.allowed(decision).completion().countsByOutcome()).isFalse();
	}

	@Test
	void aGateBeforeAuthenticationDecidesTheOutcomeCountedLimitsAndTheFilterAfterItTheRest() {
		for (int i = 0; i < 3; i++) {
			Decision gate = this.limiter.decide(TestRequest.from("203.0.113.7"), Classification.of("login", 1),
					CheckScope.OUTCOME_COUNTED);
			assertThat(gate.limits().states()).extracting(PolicyState::name).containsExactly("anonymous-ip-login");
			Decision rest = this.limiter.decide(TestRequest.from("203.0.113.7"), Classification.of("login", 1),
					CheckScope.COUNTING_EVERY_RESPONSE);
			assertThat(rest.limits().states()).extracting(PolicyState::name).doesNotContain("anonymous-ip-login");
			// refused by authentication: the gate settles with the 401 it sees written
			Decisions.allowed(gate).completion().responseDone(401);
		}
		assertThat(this.limiter
			.decide(TestRequest.from("203.0.113.7"), Classification.of("login", 1), CheckScope.OUTCOME_COUNTED)
			.outcome()).isEqualTo(Outcome.REJECTED);
		// the default group has no limit that counts by outcome: nothing for the gate to
		// decide
		assertThat(this.limiter
			.decide(TestRequest.from("203.0.113.7"), Classification.of("default", 1), CheckScope.OUTCOME_COUNTED)
			.outcome()).isEqualTo(Outcome.UNLIMITED);
	}

	@Test
	void whetherAnyGroupCountsByOutcomeFollowsAReplacedPolicyTable() {
		// the gate before authentication asks this on every request, and decides nothing
		// for outcome-counted limits while it answers false
		PolicyTable everyResponse = PolicyTable.build(Map.of("anonymous", Map.of("ip", Map.of("default", "100/1m"))),
				Map.of(), Set.of());
		RuntimeControl control = new RuntimeControl(new InMemoryControlStore(this.time),
				new PolicyRegistry(everyResponse), List.of(), BanRules.NONE, this.time, Duration.ofSeconds(1));
		RateLimiter limiter = RateLimiter
			.builder(new Identifier(List.of(), new ClientIpResolver(List.of(), 32, 64), everyResponse.tiers(),
					"anonymous", "anonymous"), this.store)
			.control(control)
			.build();
		assertThat(limiter.countsByOutcome()).isFalse();
		control.registry().replace(this.table);
		assertThat(limiter.countsByOutcome()).isTrue();
		control.registry().replace(everyResponse);
		assertThat(limiter.countsByOutcome()).isFalse();
	}

}
