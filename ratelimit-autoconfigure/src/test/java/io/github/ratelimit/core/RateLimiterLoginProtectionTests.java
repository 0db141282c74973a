package io.github.ratelimit.core;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import io.github.ratelimit.control.BanRule;
import io.github.ratelimit.control.BanRules;
import io.github.ratelimit.control.RuntimeControl;
import io.github.ratelimit.identity.ClientIpResolver;
import io.github.ratelimit.identity.Identifier;
import io.github.ratelimit.policy.Classification;
import io.github.ratelimit.policy.CountedResponses;
import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.LimitParser;
import io.github.ratelimit.policy.PolicyRegistry;
import io.github.ratelimit.policy.PolicyTable;
import io.github.ratelimit.storage.memory.InMemoryControlStore;
import io.github.ratelimit.storage.memory.InMemoryRateLimitStore;
import io.github.ratelimit.test.ManualTimeMeter;
import io.github.ratelimit.test.TestRequest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Failed-login protection in the limiter: a login attempt takes a token from the budget
 * of its address and of the account it tries, a response that is no failure gives it
 * back, a spent budget refuses attempts (whatever the request's group, excluded paths
 * included), an address refused often enough is banned, and the filter after
 * authentication does not count an attempt a second time.
 */
class RateLimiterLoginProtectionTests {

	private static final String ADDRESS = "203.0.113.7";

	private final ManualTimeMeter time = new ManualTimeMeter(Instant.parse("2026-03-01T10:00:00Z"));

	private final InMemoryRateLimitStore store = new InMemoryRateLimitStore(10_000, this.time, this.time);

	private final PolicyTable table = PolicyTable.build(Map.of("anonymous", Map.of("ip", Map.of("default", "100/1m"))),
			Map.of(), Set.of());

	private final RuntimeControl control = new RuntimeControl(new InMemoryControlStore(this.time),
			new PolicyRegistry(this.table), List.of(), BanRules.NONE, this.time, Duration.ofSeconds(1));

	private final Identifier identifier = new Identifier(List.of(), new ClientIpResolver(List.of(), 32, 64),
			this.table.tiers(), "anonymous", "anonymous");

	private LoginProtection protection = protection(null);

	private RateLimiter limiter = limiter(this.protection);

	private static LoginProtection protection(@Nullable BanRule bans) {
		return new LoginProtection(LimitParser.parse("3/1m"), LimitParser.parse("5/1m"),
				CountedResponses.parse(List.of("401")), bans);
	}

	private RateLimiter limiter(LoginProtection protection) {
		return RateLimiter.builder(this.identifier, this.store)
			.control(this.control)
			.clock(this.time)
			.loginProtection(protection)
			.build();
	}

	private Decision attempt(String address, @Nullable LoginAttempt attempt) {
		return attempt(address, Classification.of("default", 1), CheckScope.OUTCOME_COUNTED, attempt);
	}

	private Decision attempt(String address, Classification classification, CheckScope scope,
			@Nullable LoginAttempt attempt) {
		return this.limiter.decide(TestRequest.from(address), classification, scope, attempt);
	}

	// an attempt the gate lets through, and the final status it sees written
	private Decision settled(String address, @Nullable LoginAttempt attempt, int status) {
		Decision decision = attempt(address, attempt);
		assertThat(decision.outcome()).as("attempt from %s", address).isEqualTo(Outcome.ALLOWED);
		Decisions.allowed(decision).completion().responseDone(status);
		return decision;
	}

	@Test
	void anAddressHasItsBudgetOfFailedAttempts() {
		for (int i = 0; i < 3; i++) {
			Decision decision = settled(ADDRESS, LoginAttempt.ANONYMOUS, 401);
			assertThat(decision.limits().states()).extracting(PolicyState::name).containsExactly("login-ip-failures");
		}
		Decision.Rejected refused = Decisions.rejected(attempt(ADDRESS, LoginAttempt.ANONYMOUS));
		assertThat(refused.binding().name()).isEqualTo("login-ip-failures");
		assertThat(refused.binding().dimension()).isEqualTo(Dimension.IP);
		// 3 a minute: one comes back every 20 seconds
		assertThat(refused.retryAfterSeconds()).isEqualTo(20);
		// another address has a budget of its own
		assertThat(attempt("203.0.113.8", LoginAttempt.ANONYMOUS).outcome()).isEqualTo(Outcome.ALLOWED);
		this.time.advance(Duration.ofSeconds(20));
		assertThat(attempt(ADDRESS, LoginAttempt.ANONYMOUS).outcome()).isEqualTo(Outcome.ALLOWED);
	}

	@Test
	void attemptsOnAnAccountFromOneAddressAreStoppedByTheAddressBudgetFirst() {
		for (int i = 0; i < 3; i++) {
			settled(ADDRESS, LoginAttempt.on("alice"), 401);
		}
		Decision refused = attempt(ADDRESS, LoginAttempt.on("alice"));
		assertThat(refused.outcome()).isEqualTo(Outcome.REJECTED);
		assertThat(refused.limits().binding().name()).isEqualTo("login-ip-failures");
	}

	@Test
	void aSuccessfulAttemptGivesItsTokenBack() {
		for (int i = 0; i < 10; i++) {
			settled(ADDRESS, LoginAttempt.on("alice"), 200);
		}
		// a redirect after a good form login is no failure either
		settled(ADDRESS, LoginAttempt.on("alice"), 302);
		for (int i = 0; i < 3; i++) {
			settled(ADDRESS, LoginAttempt.on("alice"), 401);
		}
		assertThat(attempt(ADDRESS, LoginAttempt.on("alice")).outcome()).isEqualTo(Outcome.REJECTED);
	}

	@Test
	void onlyTheConfiguredStatusesAreFailures() {
		for (int i = 0; i < 5; i++) {
			// count is "401": a 403 is not a failed login here
			settled(ADDRESS, LoginAttempt.ANONYMOUS, 403);
		}
		assertThat(attempt(ADDRESS, LoginAttempt.ANONYMOUS).limits().binding().remaining()).isEqualTo(2);
	}

	@Test
	void anAccountHasItsBudgetAcrossAddresses() {
		for (int i = 1; i <= 5; i++) {
			settled("198.51.100." + i, LoginAttempt.on("alice"), 401);
		}
		Decision refused = attempt("198.51.100.6", LoginAttempt.on("ALICE "));
		assertThat(refused.outcome()).isEqualTo(Outcome.REJECTED);
		assertThat(refused.limits().binding().dimension()).isEqualTo(Dimension.ACCOUNT);
		assertThat(refused.limits().binding().name()).isEqualTo("login-account-failures");
		// the binding names the hash, never the name tried
		assertThat(refused.limits().binding().id()).isEqualTo(LoginAttempt.on("alice").account());
		// the fresh address may still try other accounts: the refusal took nothing from
		// its own budget
		for (int i = 0; i < 3; i++) {
			settled("198.51.100.6", LoginAttempt.on("bob"), 401);
		}
		assertThat(attempt("198.51.100.6", LoginAttempt.on("carol")).limits().binding().name())
			.isEqualTo("login-ip-failures");
	}

	@Test
	void anAttemptOnNoAccountSpendsNoAccountBudget() {
		Decision decision = settled(ADDRESS, LoginAttempt.ANONYMOUS, 401);
		assertThat(decision.limits().states()).extracting(PolicyState::dimension).containsExactly(Dimension.IP);
		Decision named = settled("203.0.113.8", LoginAttempt.on("alice"), 401);
		assertThat(named.limits().states()).extracting(PolicyState::name)
			.containsExactlyInAnyOrder("login-ip-failures", "login-account-failures");
	}

	@Test
	void withoutAPerAccountBudgetOnlyTheAddressIsCounted() {
		this.protection = new LoginProtection(LimitParser.parse("3/1m"), null, CountedResponses.parse(List.of("401")),
				null);
		this.limiter = limiter(this.protection);
		for (int i = 1; i <= 10; i++) {
			Decision decision = settled("198.51.100." + i, LoginAttempt.on("alice"), 401);
			assertThat(decision.limits().states()).extracting(PolicyState::name).containsExactly("login-ip-failures");
		}
	}

	@Test
	void anExcludedPathStillCountsLoginAttempts() {
		for (int i = 0; i < 3; i++) {
			Decision decision = attempt(ADDRESS, Classification.EXCLUDED, CheckScope.OUTCOME_COUNTED,
					LoginAttempt.on("alice"));
			assertThat(decision.outcome()).isEqualTo(Outcome.ALLOWED);
			assertThat(decision.limits().states()).extracting(PolicyState::name)
				.containsExactlyInAnyOrder("login-ip-failures", "login-account-failures");
			Decisions.allowed(decision).completion().responseDone(401);
		}
		Decision refused = attempt(ADDRESS, Classification.EXCLUDED, CheckScope.OUTCOME_COUNTED,
				LoginAttempt.on("alice"));
		assertThat(refused.outcome()).isEqualTo(Outcome.REJECTED);
		assertThat(refused.limits().binding().name()).isEqualTo("login-ip-failures");
		// what presents no credentials there stays unlimited, spent budget or not
		assertThat(attempt(ADDRESS, Classification.EXCLUDED, CheckScope.OUTCOME_COUNTED, null).outcome())
			.isEqualTo(Outcome.UNLIMITED);
		assertThat(attempt(ADDRESS, Classification.EXCLUDED, CheckScope.ALL, null).outcome())
			.isEqualTo(Outcome.UNLIMITED);
		// and the attempts made there are spent on the application's paths too
		assertThat(attempt(ADDRESS, LoginAttempt.on("alice")).outcome()).isEqualTo(Outcome.REJECTED);
	}

	@Test
	void theFilterAfterAuthenticationDoesNotCountAnAttemptAgain() {
		for (int i = 0; i < 10; i++) {
			Decision rest = attempt(ADDRESS, Classification.of("default", 1), CheckScope.COUNTING_EVERY_RESPONSE,
					LoginAttempt.on("alice"));
			assertThat(rest.outcome()).isEqualTo(Outcome.ALLOWED);
			assertThat(rest.limits().states()).extracting(PolicyState::name).containsExactly("anonymous-ip-default");
			Decisions.allowed(rest).completion().responseDone(401);
		}
		// the gate's budget is untouched
		Decision gate = attempt(ADDRESS, LoginAttempt.on("alice"));
		assertThat(gate.outcome()).isEqualTo(Outcome.ALLOWED);
		assertThat(gate.limits().states()).filteredOn((state) -> state.name().equals("login-ip-failures"))
			.extracting(PolicyState::remaining)
			.containsExactly(2L);
	}

	@Test
	void aRequestThatIsNoAttemptIsNotCounted() {
		for (int i = 0; i < 5; i++) {
			Decision decision = attempt(ADDRESS, null);
			// the default group counts every response: nothing for a gate to decide
			assertThat(decision.outcome()).isEqualTo(Outcome.UNLIMITED);
		}
		assertThat(attempt(ADDRESS, LoginAttempt.ANONYMOUS).limits().binding().remaining()).isEqualTo(2);
	}

	@Test
	void refusalsAreCountedByWhichBudgetWasSpent() {
		assertThat(this.limiter.protectsLogins()).isTrue();
		assertThat(this.limiter.loginProtection()).isSameAs(this.protection);
		for (int i = 0; i < 3; i++) {
			settled(ADDRESS, LoginAttempt.ANONYMOUS, 401);
		}
		attempt(ADDRESS, LoginAttempt.ANONYMOUS);
		attempt(ADDRESS, LoginAttempt.ANONYMOUS);
		assertThat(this.protection.addressesThrottled()).isEqualTo(2);
		assertThat(this.protection.accountsThrottled()).isZero();
		for (int i = 1; i <= 5; i++) {
			settled("198.51.100." + i, LoginAttempt.on("alice"), 401);
		}
		attempt("198.51.100.6", LoginAttempt.on("alice"));
		assertThat(this.protection.accountsThrottled()).isEqualTo(1);
		assertThat(this.protection.addressesThrottled()).isEqualTo(2);
	}

	@Test
	void failuresCountedAreTheFailedStatusesNoted() {
		this.protection.attempted(401);
		this.protection.attempted(200);
		this.protection.attempted(403);
		assertThat(this.protection.failuresCounted()).isEqualTo(1);
		assertThat(this.protection.isFailure(401)).isTrue();
		assertThat(this.protection.isFailure(302)).isFalse();
	}

	@Test
	void aLimiterWithoutLoginProtectionCountsNoAttempts() {
		RateLimiter plain = RateLimiter.builder(this.identifier, this.store)
			.control(this.control)
			.clock(this.time)
			.build();
		assertThat(plain.protectsLogins()).isFalse();
		assertThat(plain.loginProtection()).isNull();
		for (int i = 0; i < 10; i++) {
			assertThat(plain
				.decide(TestRequest.from(ADDRESS), Classification.of("default", 1), CheckScope.OUTCOME_COUNTED,
						LoginAttempt.on("alice"))
				.outcome()).isEqualTo(Outcome.UNLIMITED);
		}
	}

	@Test
	void anAddressThatKeepsTryingIsBanned() {
		this.protection = protection(
				new BanRule(2, Duration.ofMinutes(10), Duration.ofMinutes(15), Duration.ofDays(1), Duration.ofDays(1)));
		this.limiter = limiter(this.protection);
		for (int i = 0; i < 3; i++) {
			settled(ADDRESS, LoginAttempt.ANONYMOUS, 401);
		}
		assertThat(attempt(ADDRESS, LoginAttempt.ANONYMOUS).outcome()).isEqualTo(Outcome.REJECTED);
		assertThat(attempt(ADDRESS, LoginAttempt.ANONYMOUS).outcome()).isEqualTo(Outcome.REJECTED);
		assertThat(this.control.bansStarted()).isEqualTo(1);
		Decision.Banned banned = Decisions.banned(attempt(ADDRESS, LoginAttempt.ANONYMOUS));
		assertThat(banned.retryAfterSeconds()).isEqualTo(Duration.ofMinutes(15).toSeconds());
		// banned for the address, not only for its logins
		assertThat(this.limiter.decide(TestRequest.from(ADDRESS), Classification.of("default", 1)).outcome())
			.isEqualTo(Outcome.BANNED);
	}

	@Test
	void addressesRefusedForTheAccountTheyTryAreNotBanned() {
		this.protection = protection(
				new BanRule(1, Duration.ofMinutes(10), Duration.ofMinutes(15), Duration.ofDays(1), Duration.ofDays(1)));
		this.limiter = limiter(this.protection);
		for (int i = 1; i <= 5; i++) {
			settled("198.51.100." + i, LoginAttempt.on("alice"), 401);
		}
		for (int i = 0; i < 3; i++) {
			// the account's owner may be among them
			assertThat(attempt("198.51.100.6", LoginAttempt.on("alice")).outcome()).isEqualTo(Outcome.REJECTED);
		}
		assertThat(this.control.bansStarted()).isZero();
		assertThat(attempt("198.51.100.6", LoginAttempt.on("bob")).outcome()).isEqualTo(Outcome.ALLOWED);
	}

}
