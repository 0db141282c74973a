package io.github.ratelimit.load;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import io.github.ratelimit.policy.Bandwidth;
import io.github.ratelimit.policy.CountedResponses;
import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.LimitParser;
import io.github.ratelimit.policy.Mode;
import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.policy.PolicyScope;
import io.github.ratelimit.test.ManualTimeMeter;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Policies at their share: every amount scaled (at least 1) but a leaky bucket's rate,
 * the name, mode and counted responses kept, one copy per policy and share.
 */
class ScaledPoliciesTests {

	private final ManualTimeMeter clock = new ManualTimeMeter();

	private final ScaledPolicies scaled = new ScaledPolicies(
			new LimitFactors(this.clock, Duration.ofSeconds(30), 0.25, null, null, Map.of()));

	@Test
	void scalesEveryAmountButALeakyBucketsRate() {
		Policy policy = new Policy("free", Dimension.USER, "default",
				LimitParser.parse("100/1m, 1000/1h fixed, 60/1m sliding, 10000/month, 3/1s leaky, 8 concurrent"),
				Mode.WARN, 80, CountedResponses.ALL);
		Policy copy = this.scaled.inForce(List.of(policy), "free", "default").get(0);
		assertThat(copy.name()).isEqualTo(policy.name());
		assertThat(copy.mode()).isEqualTo(Mode.WARN);
		assertThat(copy.warnAtPercent()).isEqualTo(80);
		assertThat(copy.limit().bandwidths()).extracting(Bandwidth::quota)
			.containsExactly(25L, 250L, 15L, 2500L, 3L, 2L);
		assertThat(copy.limit().bandwidths()).extracting(Bandwidth::capacity)
			.containsExactly(25L, 250L, 15L, 2500L, 3L, 2L);
		assertThat(copy.limit().spec()).isNotEqualTo(policy.limit().spec());
	}

	@Test
	void keepsAtLeastOneAndOneCopyPerShare() {
		Policy policy = new Policy(PolicyScope.BACKSTOP, Dimension.IP, "default", LimitParser.parse("2/1m"));
		List<Policy> first = this.scaled.inForce(List.of(policy), "free", "default");
		assertThat(first.get(0).limit().bandwidths().get(0).quota()).isOne();
		assertThat(first.get(0).scope()).isEqualTo(PolicyScope.BACKSTOP);
		assertThat(this.scaled.inForce(List.of(policy), "free", "default").get(0)).isSameAs(first.get(0));
	}

	@Test
	void aKeyedPolicyStaysKeyed() {
		Policy policy = Policy.keyed("free", "repo", "default", LimitParser.parse("40/1m"), Mode.ENFORCE, 0,
				CountedResponses.ALL);
		Policy copy = this.scaled.inForce(List.of(policy), "free", "default").get(0);
		assertThat(copy.keyName()).isEqualTo("repo");
		assertThat(copy.name()).isEqualTo("free-repo-default");
		assertThat(copy.limit().bandwidths().get(0).quota()).isEqualTo(10);
	}

	@Test
	void atTheWholeSizeThePoliciesAreTheConfiguredOnes() {
		this.clock.advance(Duration.ofSeconds(30));
		List<Policy> policies = List.of(new Policy("free", Dimension.USER, "default", LimitParser.parse("100/1m")));
		assertThat(this.scaled.inForce(policies, "free", "default")).isSameAs(policies);
	}

}
