package io.github.ratelimit.core;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import io.github.ratelimit.identity.ApiKey;
import io.github.ratelimit.identity.ApiKeyIdentityResolver;
import io.github.ratelimit.identity.ClientIpResolver;
import io.github.ratelimit.identity.Identifier;
import io.github.ratelimit.identity.IdentityResolver;
import io.github.ratelimit.identity.ResolvedIdentity;
import io.github.ratelimit.policy.Classification;
import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.InlineLimit;
import io.github.ratelimit.policy.LimitParser;
import io.github.ratelimit.policy.PolicyTable;
import io.github.ratelimit.storage.BandwidthResult;
import io.github.ratelimit.storage.CheckResult;
import io.github.ratelimit.storage.LimitCheck;
import io.github.ratelimit.storage.RateLimitStore;
import io.github.ratelimit.storage.StoreDecision;
import io.github.ratelimit.storage.StoreUnavailableException;
import io.github.ratelimit.storage.memory.InMemoryRateLimitStore;
import io.github.ratelimit.test.ManualTimeMeter;
import io.github.ratelimit.test.TestRequest;

import static org.assertj.core.api.Assertions.assertThat;

@ExtendWith(OutputCaptureExtension.class)
class RateLimiterTests {

	private final ManualTimeMeter time = new ManualTimeMeter();

	private final InMemoryRateLimitStore store = new InMemoryRateLimitStore(10_000, this.time);

	/** Callers say who they are in X-User / X-Org: a stand-in for a verified source. */
	private final IdentityResolver headerResolver = (request) -> {
		String user = request.header("X-User");
		return (user != null) ? new ResolvedIdentity(user, request.header("X-Org"), request.header("X-Tier"), null)
				: null;
	};

	private final PolicyTable table = PolicyTable.build(
			Map.of("anonymous", Map.of("ip", Map.of("default", "3/1m", "admin", "0")), "premium",
					Map.of("user", Map.of("default", "5/1m"), "org", Map.of("default", "8/1m", "export", "20/1m"))),
			Map.of("default", "100/1m"), Set.of("admin", "export"));

	private RateLimiter limiter(RateLimitStore store, FailureMode mode) {
		Identifier identifier = new Identifier(List.of(this.headerResolver), new ClientIpResolver(List.of(), 32, 64),
				this.table.tiers(), "anonymous", "premium");
		return RateLimiter.builder(identifier, store)
			.policies(this.table)
			.failureMode(mode, this.store)
			.clock(Clock.fixed(Instant.parse("2026-01-17T12:34:00Z"), ZoneOffset.UTC))
			.build();
	}

	private final RateLimiter limiter = limiter(this.store, FailureMode.OPEN);

	private Decision anonymous(String group) {
		return this.limiter.decide(TestRequest.from("203.0.113.7"), Classification.of(group, 1));
	}

	private Decision premium(String user, String group, long cost) {
		return this.limiter.decide(TestRequest.from("203.0.113.7")
			.header("X-User", user)
			.header("X-Org", "acme")
			.header("X-Tier", "premium"), Classification.of(group, cost));
	}

	@Test
	void admitsUpToTheLimitThenRejectsWithTheWait() {
		for (int i = 2; i >= 0; i--) {
			Decision decision = anonymous("default");
			assertThat(decision.outcome()).isEqualTo(Outcome.ALLOWED);
			assertThat(decision.limits().binding().remaining()).isEqualTo(i);
			assertThat(decision.limits().binding().name()).isEqualTo("anonymous-ip-default");
		}
		Decision.Rejected rejected = Decisions.rejected(anonymous("default"));
		assertThat(rejected.limits().binding().dimension()).isEqualTo(Dimension.IP);
		assertThat(rejected.limits().binding().id()).isEqualTo("203.0.113.7");
		assertThat(rejected.retryAfterSeconds()).isEqualTo(20);
		assertThat(rejected.violatedPolicies()).containsExactly("anonymous-ip-default");
	}

	@Test
	void refillAdmitsAgainAfterTheWait() {
		for (int i = 0; i < 3; i++) {
			anonymous("default");
		}
		assertThat(anonymous("default").outcome()).isEqualTo(Outcome.REJECTED);
		this.time.advance(Duration.ofSeconds(20));
		assertThat(anonymous("default").outcome()).isEqualTo(Outcome.ALLOWED);
	}

	@Test
	void orgRejectionLeavesTheUsersOwnBucketUntouched() {
		// two users of acme spend the org's 8 tokens: 5 by alice, 3 by bob
		for (int i = 0; i < 5; i++) {
			assertThat(premium("alice", "default", 1).outcome()).isEqualTo(Outcome.ALLOWED);
		}
		for (int i = 0; i < 3; i++) {
			assertThat(premium("bob", "default", 1).outcome()).isEqualTo(Outcome.ALLOWED);
		}
		// bob has 2 of his own left, but the org has none: rejected, and the body must
		// name the org
		for (int i = 0; i < 5; i++) {
			Decision rejected = premium("bob", "default", 1);
			assertThat(rejected.outcome()).isEqualTo(Outcome.REJECTED);
			assertThat(rejected.limits().binding().dimension()).isEqualTo(Dimension.ORG);
			assertThat(rejected.limits().binding().id()).isEqualTo("acme");
			PolicyState userState = rejected.limits()
				.states()
				.stream()
				.filter((state) -> state.dimension() == Dimension.USER)
				.findFirst()
				.orElseThrow();
			assertThat(userState.violated()).isFalse();
			assertThat(userState.remaining()).isEqualTo(2);
		}
		// once the org refills one token, bob's own budget is still there
		this.time.advance(Duration.ofMillis(7500));
		Decision admitted = premium("bob", "default", 1);
		assertThat(admitted.outcome()).isEqualTo(Outcome.ALLOWED);
		assertThat(admitted.limits()
			.states()
			.stream()
			.filter((state) -> state.dimension() == Dimension.USER)
			.findFirst()
			.orElseThrow()
			.remaining()).isEqualTo(1);
	}

	@Test
	void longestWaitIsTheReasonAndTiesGoToTheOrg() {
		// user limit 5/1m (12 s per token) and org 8/1m (7.5 s per token): cost 5 spends
		// the user first
		assertThat(premium("carol", "default", 5).outcome()).isEqualTo(Outcome.ALLOWED);
		Decision.Rejected rejected = Decisions.rejected(premium("carol", "default", 5));
		// user needs 5 tokens (60 s), org needs 2 (15 s): the user's wait is the one that
		// matters
		assertThat(rejected.limits().binding().dimension()).isEqualTo(Dimension.USER);
		assertThat(rejected.retryAfterSeconds()).isEqualTo(60);
		assertThat(rejected.violatedPolicies()).containsExactly("premium-user-default", "premium-org-default");
	}

	@Test
	void costIsChargedToEveryBucket() {
		Decision decision = premium("dave", "export", 4);
		assertThat(decision.limits().states()).extracting(PolicyState::remaining).containsExactly(16L, 1L, 96L);
	}

	@Test
	void blockedTierAnswersBlockedWithoutTouchingTheStore() {
		Decision decision = anonymous("admin");
		assertThat(Decisions.blocked(decision).blockedBy().name()).isEqualTo("anonymous-ip-admin");
		assertThat(this.store.size()).isZero();
	}

	@Test
	void costBeyondEveryCapacityIsBlockedRatherThanRetriedForever() {
		Decision decision = anonymous("default");
		assertThat(this.limiter.decide(TestRequest.from("203.0.113.8"), Classification.of("default", 4)).outcome())
			.isEqualTo(Outcome.BLOCKED);
		assertThat(decision.outcome()).isEqualTo(Outcome.ALLOWED);
	}

	@Test
	void handlersOwnLimitCountsPerUserOrElsePerAddressOnTopOfTheTier() {
		InlineLimit own = new InlineLimit("ReportController.run", LimitParser.parse("2/1h"));
		Classification classification = Classification.of("default", 1).withInline(own);
		TestRequest alice = TestRequest.from("203.0.113.7").header("X-User", "alice").header("X-Tier", "premium");
		assertThat(this.limiter.decide(alice, classification).outcome()).isEqualTo(Outcome.ALLOWED);
		Decision second = this.limiter.decide(alice, classification);
		assertThat(second.limits().states()).extracting(PolicyState::name).contains("inline-user-ReportController.run");
		Decision third = this.limiter.decide(alice, classification);
		assertThat(third.outcome()).isEqualTo(Outcome.REJECTED);
		assertThat(third.limits().binding().name()).isEqualTo("inline-user-ReportController.run");
		// another user, and anonymous callers by address, have budgets of their own
		TestRequest bob = TestRequest.from("203.0.113.7").header("X-User", "bob").header("X-Tier", "premium");
		assertThat(this.limiter.decide(bob, classification).outcome()).isEqualTo(Outcome.ALLOWED);
		Decision anonymous = this.limiter.decide(TestRequest.from("198.51.100.20"), classification);
		assertThat(anonymous.limits().states()).extracting(PolicyState::name)
			.contains("inline-ip-ReportController.run");
		// the same user elsewhere is not limited by this handler's budget
		assertThat(this.limiter.decide(alice, Classification.of("default", 1)).outcome()).isEqualTo(Outcome.ALLOWED);
	}

	@Test
	void tokenLimitCountsPerApiKeyWithoutEverStoringTheKey() {
		PolicyTable integrations = PolicyTable.build(
				Map.of("integration", Map.of("token", Map.of("default", "2/1m"), "org", Map.of("default", "100/1m"))),
				Map.of(), Set.of());
		Identifier identifier = new Identifier(
				List.of(new ApiKeyIdentityResolver(List.of(ApiKey.ofKey("key-one-secret", null, "acme", "integration"),
						ApiKey.ofKey("key-two-secret", null, "acme", "integration")))),
				new ClientIpResolver(List.of(), 32, 64), integrations.tiers(), "anonymous", "integration");
		RateLimiter limiter = RateLimiter.builder(identifier, this.store).policies(integrations).build();
		TestRequest one = TestRequest.from("203.0.113.7").header("X-API-Key", "key-one-secret");
		TestRequest two = TestRequest.from("203.0.113.7").header("X-API-Key", "key-two-secret");
		Classification classification = Classification.of("default", 1);
		limiter.decide(one, classification);
		limiter.decide(one, classification);
		Decision rejected = limiter.decide(one, classification);
		assertThat(rejected.outcome()).isEqualTo(Outcome.REJECTED);
		assertThat(rejected.limits().binding().dimension()).isEqualTo(Dimension.TOKEN);
		assertThat(rejected.limits().binding().id()).startsWith("t-").doesNotContain("secret");
		assertThat(limiter.decide(two, classification).outcome()).isEqualTo(Outcome.ALLOWED);
	}

	@Test
	void excludedRequestsAreUnlimited() {
		Decision decision = this.limiter.decide(TestRequest.from("203.0.113.7"), Classification.EXCLUDED);
		assertThat(decision.outcome()).isEqualTo(Outcome.UNLIMITED);
		assertThat(decision.limits()).isSameAs(LimitReport.NONE);
	}

	@Test
	void unknownTierClaimGetsTheAuthenticatedTierNotAnInventedOne() {
		Decision decision = this.limiter.decide(
				TestRequest.from("203.0.113.7").header("X-User", "eve").header("X-Tier", "unlimited-gold"),
				Classification.of("default", 1));
		assertThat(decision.identity().tier()).isEqualTo("premium");
	}

	@Test
	void failureModesDecideWhenTheStoreIsDown() {
		RateLimitStore down = new RateLimitStore() {
			@Override
			public StoreDecision decide(List<LimitCheck> checks) {
				throw new StoreUnavailableException("down");
			}
		};
		TestRequest request = TestRequest.from("198.51.100.1");
		Classification classification = Classification.of("default", 1);
		assertThat(limiter(down, FailureMode.OPEN).decide(request, classification).outcome())
			.isEqualTo(Outcome.ADMITTED_ON_ERROR);
		assertThat(limiter(down, FailureMode.CLOSED).decide(request, classification).outcome())
			.isEqualTo(Outcome.UNAVAILABLE);
		RateLimiter local = limiter(down, FailureMode.LOCAL);
		for (int i = 0; i < 3; i++) {
			assertThat(local.decide(request, classification).outcome()).isEqualTo(Outcome.ALLOWED);
		}
		assertThat(local.decide(request, classification).outcome()).isEqualTo(Outcome.REJECTED);
		assertThat(limiter(down, FailureMode.CLOSED).decideAsync(request, classification).join().outcome())
			.isEqualTo(Outcome.UNAVAILABLE);
	}

	@Test
	void everyDecisionOfTheFailureModeIsRecordedForTheLogAndHealth(CapturedOutput output) {
		RateLimitStore refusing = new RateLimitStore() {
			@Override
			public StoreDecision decide(List<LimitCheck> checks) {
				throw new StoreUnavailableException(StoreUnavailableException.Kind.REFUSED,
						"Redis refused: OOM command not allowed when used memory > 'maxmemory'.", null);
			}
		};
		RateLimiter local = limiter(refusing, FailureMode.LOCAL);
		for (int i = 0; i < 4; i++) {
			local.decide(TestRequest.from("198.51.100.1"), Classification.of("default", 1));
		}
		assertThat(local.storeFailures().count(StoreUnavailableException.Kind.REFUSED)).isEqualTo(4);
		assertThat(local.storeFailures().failureModeLog().total()).isEqualTo(4);
		assertThat(local.storeFailures().failureModeLog().recent()).isNotNull()
			.satisfies((failure) -> assertThat(failure.kind()).isEqualTo(StoreUnavailableException.Kind.REFUSED));
		assertThat(output).containsOnlyOnce("Rate-limit store failed (refused: Redis refused: OOM command not allowed");
	}

	@Test
	void asyncDecisionCountsLikeTheSyncOne() {
		for (int i = 2; i >= 0; i--) {
			Decision decision = this.limiter.decideAsync(TestRequest.from("192.0.2.9"), Classification.of("default", 1))
				.join();
			assertThat(decision.outcome()).isEqualTo(Outcome.ALLOWED);
			assertThat(decision.limits().binding().remaining()).isEqualTo(i);
		}
		Decision rejected = this.limiter.decideAsync(TestRequest.from("192.0.2.9"), Classification.of("default", 1))
			.join();
		assertThat(Decisions.rejected(rejected).retryAfterSeconds()).isEqualTo(20);
	}

	@Test
	void inconsistentStoreAnswerGetsTheFailureModeNotAnException() {
		// refuses every request, yet reports every bucket as holding the tokens
		RateLimitStore inconsistent = (checks) -> new StoreDecision(false,
				checks.stream()
					.map((check) -> new CheckResult(true, List.of(new BandwidthResult(3, 0, 0, 0))))
					.toList());
		Decision open = limiter(inconsistent, FailureMode.OPEN).decide(TestRequest.from("203.0.113.9"),
				Classification.of("default", 1));
		assertThat(open.outcome()).isEqualTo(Outcome.ADMITTED_ON_ERROR);
		Decision closed = limiter(inconsistent, FailureMode.CLOSED).decide(TestRequest.from("203.0.113.9"),
				Classification.of("default", 1));
		assertThat(closed.outcome()).isEqualTo(Outcome.UNAVAILABLE);
		Decision local = limiter(inconsistent, FailureMode.LOCAL)
			.decideAsync(TestRequest.from("203.0.113.9"), Classification.of("default", 1))
			.join();
		assertThat(local.outcome()).as("decided by the local buckets").isEqualTo(Outcome.ALLOWED);
	}

}
