package io.github.ratelimit.core;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.github.ratelimit.control.AccessRule;
import io.github.ratelimit.control.BanRules;
import io.github.ratelimit.control.RuntimeControl;
import io.github.ratelimit.identity.ClientIpResolver;
import io.github.ratelimit.identity.Identifier;
import io.github.ratelimit.identity.Identity;
import io.github.ratelimit.policy.Classification;
import io.github.ratelimit.policy.PolicyRegistry;
import io.github.ratelimit.policy.PolicyTable;
import io.github.ratelimit.storage.memory.InMemoryControlStore;
import io.github.ratelimit.test.ManualTimeMeter;
import io.github.ratelimit.test.TestRequest;

import static org.assertj.core.api.Assertions.assertThat;

class AddressGateTests {

	private final ManualTimeMeter clock = new ManualTimeMeter(Instant.parse("2026-03-01T10:00:00Z"));

	private final Identifier identifier = new Identifier(List.of(),
			new ClientIpResolver(List.of("127.0.0.1/32"), 32, 64), Set.of(), "anonymous", "authenticated");

	private final Classification classification = Classification.of("login", 1);

	private AddressGate gate(List<AccessRule> rules, RuntimeControl[] control) {
		PolicyTable table = PolicyTable.build(Map.of("anonymous", Map.of("ip", Map.of("default", "5/1m"))), Map.of(),
				Set.of("login"));
		control[0] = new RuntimeControl(new InMemoryControlStore(this.clock), new PolicyRegistry(table), rules,
				new BanRules(new BanRules.Settings(2, Duration.ofMinutes(1), Duration.ofHours(1), null, null), Map.of(),
						Map.of()),
				this.clock, Duration.ofSeconds(1));
		return new AddressGate(this.identifier, control[0], this.clock);
	}

	@Test
	void isIdleWithoutAddressRulesOrBans() {
		AddressGate gate = gate(List.of(AccessRule.parse(AccessRule.Access.DENY, "user:mallory")),
				new RuntimeControl[1]);
		assertThat(gate.active()).isFalse();
		assertThat(gate.check(TestRequest.from("203.0.113.7"), () -> {
			throw new AssertionError("a request that passes is not classified");
		})).isNull();
	}

	@Test
	void refusesADeniedRangeWhoeverCalls() {
		AddressGate gate = gate(List.of(AccessRule.parse(AccessRule.Access.DENY, "203.0.113.0/24"),
				AccessRule.parse(AccessRule.Access.ALLOW, "203.0.113.0/24")), new RuntimeControl[1]);
		assertThat(gate.active()).isTrue();
		Decision refusal = gate.check(TestRequest.from("127.0.0.1").header("X-Forwarded-For", "203.0.113.7"),
				() -> this.classification);
		assertThat(refusal).isNotNull();
		assertThat(refusal.outcome()).isEqualTo(Outcome.DENIED);
		assertThat(refusal.identity().ip()).isEqualTo("203.0.113.7");
		assertThat(refusal.identity().tier()).isEqualTo("anonymous");
		assertThat(refusal.classification()).isEqualTo(this.classification);
		assertThat(gate.check(TestRequest.from("198.51.100.7"), () -> this.classification)).isNull();
	}

	@Test
	void refusesABannedAddressByItsGroupUntilTheBanEnds() {
		RuntimeControl[] control = new RuntimeControl[1];
		AddressGate gate = gate(List.of(), control);
		Identity mallory = Identity.anonymous("2001:db8:1:2::/64", "anonymous");
		control[0].refused(mallory, "anonymous", "default");
		control[0].refused(mallory, "anonymous", "default");
		assertThat(gate.active()).isTrue();
		Decision refusal = gate.check(TestRequest.from("2001:db8:1:2::99"), () -> this.classification);
		assertThat(refusal).isNotNull();
		assertThat(Decisions.banned(refusal).retryAfterSeconds()).isEqualTo(3600);
		assertThat(gate.check(TestRequest.from("2001:db8:1:3::99"), () -> this.classification)).isNull();
		this.clock.advance(Duration.ofHours(1));
		assertThat(gate.check(TestRequest.from("2001:db8:1:2::99"), () -> this.classification)).isNull();
	}

	@Test
	void aBanOnAUserIsLeftToTheLimiterAndAnAllowListedAddressIsNeverBanned() {
		RuntimeControl[] control = new RuntimeControl[1];
		AddressGate gate = gate(List.of(AccessRule.parse(AccessRule.Access.ALLOW, "198.51.100.0/24")), control);
		Identity alice = new Identity("alice", null, null, "203.0.113.9", "anonymous", true);
		Identity allowed = Identity.anonymous("198.51.100.7", "anonymous");
		for (int i = 0; i < 2; i++) {
			control[0].refused(alice, "anonymous", "default");
			control[0].refused(allowed, "anonymous", "default");
		}
		assertThat(control[0].bans()).hasSize(2);
		assertThat(gate.check(TestRequest.from("203.0.113.9"), () -> this.classification)).isNull();
		assertThat(gate.check(TestRequest.from("198.51.100.7"), () -> this.classification)).isNull();
	}

}
