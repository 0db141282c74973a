package io.github.ratelimit.web;

import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.github.ratelimit.core.Decision;
import io.github.ratelimit.core.LimitReport;
import io.github.ratelimit.core.PolicyState;
import io.github.ratelimit.identity.Identity;
import io.github.ratelimit.policy.Classification;
import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.LimitParser;
import io.github.ratelimit.policy.Policy;

import static org.assertj.core.api.Assertions.assertThat;

class GateDecisionsTests {

	private final Identity alice = new Identity("alice", null, null, "203.0.113.7", "premium", true);

	private final Classification login = Classification.of("login", 1);

	private final Instant now = Instant.parse("2026-01-17T12:34:33Z");

	private final PolicyState address = state(Dimension.IP, "login", "203.0.113.7", 1);

	private final PolicyState user = state(Dimension.USER, "login", "alice", 7);

	private final Decision.Allowed gate = new Decision.Allowed(this.alice, this.login, this.now, new LimitReport(
			List.of(this.address), this.address, List.of(new LimitReport.Warning(this.address, false))));

	@Test
	void withoutTheGateTheResponseShowsWhatWasDecidedAfterAuthentication() {
		Decision.Allowed after = allowed(this.user);
		assertThat(GateDecisions.shown(null, after)).isSameAs(after.limits());
	}

	@Test
	void anAdmittedRequestShowsEveryLimitAndTheOneClosestToExhaustion() {
		LimitReport shown = GateDecisions.shown(this.gate, allowed(this.user));
		assertThat(shown.states()).containsExactly(this.address, this.user);
		assertThat(shown.binding()).isSameAs(this.address);
		assertThat(shown.warnings()).extracting(LimitReport.Warning::state).containsExactly(this.address);
	}

	@Test
	void aRefusalAfterAuthenticationKeepsItsOwnReason() {
		PolicyState spent = new PolicyState(this.user.policy(), 0, "alice", 0, 9, true);
		Decision.Rejected after = new Decision.Rejected(this.alice, this.login, this.now,
				new LimitReport(List.of(spent), spent));
		LimitReport shown = GateDecisions.shown(this.gate, after);
		assertThat(shown.states()).containsExactly(this.address, spent);
		assertThat(shown.binding()).isSameAs(spent);
	}

	@Test
	void aRefusalThatCheckedNoLimitShowsNoBindingLimitButTheGatesWarnings() {
		Decision.Denied after = new Decision.Denied(this.alice, this.login, this.now);
		LimitReport shown = GateDecisions.shown(this.gate, after);
		assertThat(shown.binding()).isNull();
		assertThat(shown.warnings()).extracting(LimitReport.Warning::state).containsExactly(this.address);
	}

	private Decision.Allowed allowed(PolicyState state) {
		return new Decision.Allowed(this.alice, this.login, this.now, new LimitReport(List.of(state), state));
	}

	private static PolicyState state(Dimension dimension, String group, String id, long remaining) {
		Policy policy = new Policy("premium", dimension, group, LimitParser.parse("10/1m"));
		return new PolicyState(policy, 0, id, remaining, 6, false);
	}

}
