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
import io.github.ratelimit.identity.AddressBits;
import io.github.ratelimit.identity.ClientIpResolver;
import io.github.ratelimit.identity.Identifier;
import io.github.ratelimit.policy.Classification;
import io.github.ratelimit.policy.PolicyRegistry;
import io.github.ratelimit.policy.PolicyTable;
import io.github.ratelimit.storage.memory.InMemoryControlStore;
import io.github.ratelimit.test.ManualTimeMeter;
import io.github.ratelimit.test.TestRequest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The gate's screens (country rules, reputation lists) by the client address the identity
 * layer resolves.
 */
class AddressGateScreensTests {

	private final ManualTimeMeter clock = new ManualTimeMeter(Instant.parse("2026-03-01T10:00:00Z"));

	private final Identifier identifier = new Identifier(List.of(),
			new ClientIpResolver(List.of("127.0.0.1/32"), 32, 64), Set.of(), "anonymous", "authenticated");

	private final Classification classification = Classification.of("login", 1);

	// refuses 203.0.113.0/24 as the country rules would
	private final AddressScreen geo = (address) -> address.toString().startsWith("203.0.113.") ? DenialReason.GEO
			: null;

	private AddressGate gate(List<AccessRule> rules, List<AddressScreen> screens) {
		PolicyTable table = PolicyTable.build(Map.of("anonymous", Map.of("ip", Map.of("default", "5/1m"))), Map.of(),
				Set.of("login"));
		RuntimeControl control = new RuntimeControl(new InMemoryControlStore(this.clock), new PolicyRegistry(table),
				rules, new BanRules(new BanRules.Settings(2, Duration.ofMinutes(1), Duration.ofHours(1), null, null),
						Map.of(), Map.of()),
				this.clock, Duration.ofSeconds(1));
		return new AddressGate(this.identifier, control, this.clock, screens);
	}

	@Test
	void refusesWhatAScreenRefusesByTheForwardedClientAddress() {
		AddressGate gate = gate(List.of(), List.of(this.geo));
		assertThat(gate.active()).isTrue();
		Decision refusal = gate.check(TestRequest.from("127.0.0.1").header("X-Forwarded-For", "203.0.113.7"),
				() -> this.classification);
		assertThat(refusal).isInstanceOfSatisfying(Decision.Denied.class, (denied) -> {
			assertThat(denied.reason()).isEqualTo(DenialReason.GEO);
			assertThat(denied.identity().ip()).isEqualTo("203.0.113.7");
		});
		// an untrusted peer cannot choose its address
		assertThat(gate.check(TestRequest.from("198.51.100.7").header("X-Forwarded-For", "203.0.113.7"),
				() -> this.classification))
			.isNull();
	}

	@Test
	void aDenyRuleNamesItselfAndAnAllowRulePassesTheScreens() {
		AddressGate gate = gate(List.of(AccessRule.parse(AccessRule.Access.DENY, "203.0.113.0/25"),
				AccessRule.parse(AccessRule.Access.ALLOW, "203.0.113.128/25")), List.of(this.geo));
		Decision denied = gate.check(TestRequest.from("203.0.113.7"), () -> this.classification);
		assertThat(denied).isInstanceOfSatisfying(Decision.Denied.class,
				(refusal) -> assertThat(refusal.reason()).isEqualTo(DenialReason.ACCESS_RULE));
		assertThat(gate.check(TestRequest.from("203.0.113.200"), () -> this.classification)).isNull();
	}

	@Test
	void aScreenThatRefusesNothingLeavesTheGateIdle() {
		AddressScreen tiersOnly = new AddressScreen() {

			@Override
			public DenialReason screen(AddressBits address) {
				throw new AssertionError("never asked");
			}

			@Override
			public boolean refuses() {
				return false;
			}

		};
		AddressGate gate = gate(List.of(), List.of(tiersOnly));
		assertThat(gate.active()).isFalse();
		assertThat(gate.check(TestRequest.from("203.0.113.7"), () -> this.classification)).isNull();
	}

}
