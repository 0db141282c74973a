package io.github.ratelimit.core;

import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.github.ratelimit.identity.Identity;
import io.github.ratelimit.policy.Classification;
import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.LimitParser;
import io.github.ratelimit.policy.Policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class DecisionTests {

	private final Identity alice = new Identity("alice", "acme", null, "203.0.113.7", "premium", true);

	private final Classification classification = Classification.of("default", 1);

	private final Instant now = Instant.parse("2026-01-17T12:34:33Z");

	private final Policy user = new Policy("premium", Dimension.USER, "default", LimitParser.parse("10/1m"));

	private final Policy org = new Policy("premium", Dimension.ORG, "default", LimitParser.parse("100/1m"));

	@Test
	void aRejectionMustNameTheLimitThatRefusedIt() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new Decision.Rejected(this.alice, this.classification, this.now, LimitReport.NONE));
	}

	@Test
	void aRejectionRetriesAfterItsBindingLimitAndNamesEveryViolatedOneBindingFirst() {
		PolicyState userState = new PolicyState(this.user, 0, "alice", 0, 6, true);
		PolicyState orgState = new PolicyState(this.org, 0, "acme", 0, 23, true);
		Decision.Rejected rejected = new Decision.Rejected(this.alice, this.classification, this.now,
				new LimitReport(List.of(orgState, userState), userState));
		assertThat(rejected.retryAfterSeconds()).isEqualTo(6);
		assertThat(rejected.violatedPolicies()).containsExactly("premium-user-default", "premium-org-default");
	}

	@Test
	void anAllowedRequestWouldHaveBeenRefusedOnlyByAnObservedOrWarnedLimit() {
		PolicyState state = new PolicyState(this.user, 0, "alice", 0, 6, false);
		LimitReport nearLimit = new LimitReport(List.of(state), state, List.of(new LimitReport.Warning(state, false)));
		LimitReport overLimit = new LimitReport(List.of(state), state, List.of(new LimitReport.Warning(state, true)));
		assertThat(new Decision.Allowed(this.alice, this.classification, this.now, nearLimit).wouldHaveBeenRefused())
			.isFalse();
		assertThat(new Decision.Allowed(this.alice, this.classification, this.now, overLimit).wouldHaveBeenRefused())
			.isTrue();
		assertThat(new Decision.Allowed(this.alice, this.classification, this.now, LimitReport.NONE, List.of(state), 0,
				Completion.NONE)
			.wouldHaveBeenRefused()).isTrue();
	}

	@Test
	void onlyAllowedAndRejectedDecisionsReportLimits() {
		assertThat(new Decision.Unlimited(this.alice, this.classification, this.now).limits())
			.isSameAs(LimitReport.NONE);
		assertThat(new Decision.Banned(this.alice, this.classification, this.now, 60).limits())
			.isSameAs(LimitReport.NONE);
	}

}
