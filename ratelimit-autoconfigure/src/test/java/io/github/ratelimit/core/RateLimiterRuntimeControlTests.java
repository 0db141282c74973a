package io.github.ratelimit.core;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.github.ratelimit.control.AccessRule;
import io.github.ratelimit.control.BanRules;
import io.github.ratelimit.control.RuntimeControl;
import io.github.ratelimit.control.Subject;
import io.github.ratelimit.identity.ClientIpResolver;
import io.github.ratelimit.identity.Identifier;
import io.github.ratelimit.policy.Classification;
import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.PolicyRegistry;
import io.github.ratelimit.policy.PolicyTable;
import io.github.ratelimit.storage.LimitCheck;
import io.github.ratelimit.storage.RateLimitStore;
import io.github.ratelimit.storage.StoreDecision;
import io.github.ratelimit.storage.memory.InMemoryControlStore;
import io.github.ratelimit.storage.memory.InMemoryRateLimitStore;
import io.github.ratelimit.test.ManualTimeMeter;
import io.github.ratelimit.test.TestRequest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The limiter under runtime control: deny and allow rules and bans decide without asking
 * the store, overrides change the limit and keep the tokens already spent, refusals lead
 * to bans.
 */
class RateLimiterRuntimeControlTests {

	private final ManualTimeMeter time = new ManualTimeMeter(Instant.parse("2026-03-01T10:00:00Z"));

	private final CountingStore store = new CountingStore(new InMemoryRateLimitStore(10_000, this.time, this.time));

	private final PolicyTable table = PolicyTable.build(Map.of("anonymous", Map.of("ip", Map.of("default", "5/1h")),
			"partner", Map.of("ip", Map.of("default", "100/1h"))), Map.of(), Set.of());

	private final RuntimeControl control = new RuntimeControl(new InMemoryControlStore(this.time),
			new PolicyRegistry(this.table),
			List.of(AccessRule.parse(AccessRule.Access.DENY, "192.0.2.0/24"),
					AccessRule.parse(AccessRule.Access.ALLOW, "198.51.100.0/24"),
					AccessRule.parse(AccessRule.Access.ALLOW, "203.0.113.128/25 as partner")),
			new BanRules(new BanRules.Settings(3, Duration.ofMinutes(1), Duration.ofHours(1), Duration.ofDays(1),
					Duration.ofDays(1)), Map.of(), Map.of()),
			this.time, Duration.ofSeconds(1));

	// 127.0.0.1 forwards; any other peer is untrusted
	private final RateLimiter limiter = RateLimiter
		.builder(new Identifier(List.of(), new ClientIpResolver(List.of("127.0.0.1/32"), 32, 64), this.table.tiers(),
				"anonymous", "authenticated"), this.store)
		.control(this.control)
		.clock(this.time)
		.build();

	private Decision via(String peer, String forwardedFor) {
		return this.limiter.decide(TestRequest.from(peer).header("X-Forwarded-For", forwardedFor),
				Classification.of("default", 1));
	}

	@Test
	void aDenyListedAddressIsRefusedWithoutAStoreCall() {
		Decision decision = via("127.0.0.1", "192.0.2.7");
		assertThat(decision).isInstanceOf(Decision.Denied.class);
		assertThat(decision.outcome()).isEqualTo(Outcome.DENIED);
		assertThat(this.store.calls).isEmpty();
	}

	@Test
	void anAllowListedAddressHasNoLimitAndNoStoreCall() {
		for (int i = 0; i < 20; i++) {
			assertThat(via("127.0.0.1", "198.51.100.7").outcome()).isEqualTo(Outcome.UNLIMITED);
		}
		assertThat(this.store.calls).isEmpty();
	}

	@Test
	void anAllowRuleWithATierPutsTheCallerInIt() {
		Decision decision = via("127.0.0.1", "203.0.113.200");
		assertThat(decision.identity().tier()).isEqualTo("partner");
		assertThat(decision.limits().binding().name()).isEqualTo("partner-ip-default");
	}

	@Test
	void aSpoofedForwardedForFromAnUntrustedPeerDoesNotReachTheAllowList() {
		// 10.9.9.9 is not a trusted proxy: it is the client, whatever it claims
		for (int i = 0; i < 5; i++) {
			assertThat(via("10.9.9.9", "198.51.100.7").outcome()).isEqualTo(Outcome.ALLOWED);
		}
		Decision refused = via("10.9.9.9", "198.51.100.7");
		assertThat(refused.outcome()).isEqualTo(Outcome.REJECTED);
		assertThat(refused.identity().ip()).isEqualTo("10.9.9.9");
		// nor does a spoofed address of the deny list shut a client out
		assertThat(via("10.9.9.10", "192.0.2.7").outcome()).isEqualTo(Outcome.ALLOWED);
	}

	@Test
	void refusedOftenEnoughACallerIsBannedWithoutFurtherStoreCalls() {
		for (int i = 0; i < 5; i++) {
			via("127.0.0.1", "203.0.113.5");
		}
		for (int i = 0; i < 3; i++) {
			assertThat(via("127.0.0.1", "203.0.113.5").outcome()).isEqualTo(Outcome.REJECTED);
		}
		int calls = this.store.calls.size();
		Decision.Banned banned = Decisions.banned(via("127.0.0.1", "203.0.113.5"));
		assertThat(banned.retryAfterSeconds()).isEqualTo(3600);
		assertThat(this.store.calls).hasSize(calls);
		this.time.advance(Duration.ofMinutes(30));
		assertThat(Decisions.banned(via("127.0.0.1", "203.0.113.5")).retryAfterSeconds()).isEqualTo(1800);
		assertThat(this.control.liftBan(Subject.of(Dimension.IP, "203.0.113.5"))).isTrue();
		// half an hour refilled two and a half of the 5 an hour
		assertThat(via("127.0.0.1", "203.0.113.5").outcome()).isEqualTo(Outcome.ALLOWED);
	}

	@Test
	void anOverrideTakesEffectAtOnceAndKeepsTheTokensAlreadySpent() {
		for (int i = 0; i < 3; i++) {
			assertThat(via("127.0.0.1", "203.0.113.6").outcome()).isEqualTo(Outcome.ALLOWED);
		}
		// 2 of 5 left; raised to 50: the bucket keeps its 2 tokens and refills towards 50
		// at the new rate
		this.control.setOverride(Dimension.IP, "203.0.113.6", "default", "50/1h", null);
		Decision raised = via("127.0.0.1", "203.0.113.6");
		assertThat(raised.limits().binding().name()).isEqualTo("override-ip-default");
		assertThat(raised.limits().binding().limit()).isEqualTo(50);
		assertThat(raised.limits().binding().remaining()).isEqualTo(1);
		this.time.advance(Duration.ofMinutes(12));
		// 12 minutes of 50 an hour: 10 more
		assertThat(via("127.0.0.1", "203.0.113.6").limits().binding().remaining()).isEqualTo(10);
		// lowered below what is held: capped at the new capacity, not handed a fresh
		// bucket
		this.control.setOverride(Dimension.IP, "203.0.113.6", "default", "3/1h", null);
		assertThat(via("127.0.0.1", "203.0.113.6").limits().binding().remaining()).isEqualTo(2);
		this.control.deleteOverride(Dimension.IP, "203.0.113.6", "default");
		assertThat(via("127.0.0.1", "203.0.113.6").limits().binding().name()).isEqualTo("anonymous-ip-default");
	}

	/** Records every decision it passes on. */
	private static final class CountingStore implements RateLimitStore {

		private final RateLimitStore store;

		final List<List<LimitCheck>> calls = new ArrayList<>();

		CountingStore(RateLimitStore store) {
			this.store = store;
		}

		@Override
		public StoreDecision decide(List<LimitCheck> checks) {
			this.calls.add(checks);
			return this.store.decide(checks);
		}

	}

}
