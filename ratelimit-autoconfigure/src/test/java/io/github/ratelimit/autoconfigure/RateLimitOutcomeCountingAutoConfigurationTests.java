package io.github.ratelimit.autoconfigure;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

import io.github.ratelimit.core.RateLimiter;
import io.github.ratelimit.policy.CountedResponses;
import io.github.ratelimit.policy.Policy;

import static io.github.ratelimit.autoconfigure.StartFailures.assertBindFailure;
import static io.github.ratelimit.autoconfigure.StartFailures.assertStartFailure;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code ratelimit.groups.<group>.count}: what the limits declared for a group count, and
 * the start failures that name a bad value.
 */
class RateLimitOutcomeCountingAutoConfigurationTests {

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RateLimitAutoConfiguration.class))
		.withPropertyValues("ratelimit.groups.login.paths=/login/**", "ratelimit.ip.login=10/1m",
				"ratelimit.tiers.free.ip.login=20/1m", "ratelimit.tiers.free.ip.default=100/1m");

	@Test
	void aGroupsCountShapesTheLimitsDeclaredForItOnly() {
		this.runner.withPropertyValues("ratelimit.groups.login.count=failures").run((context) -> {
			assertThat(context).hasNotFailed();
			var table = context.getBean(RateLimiter.class).policies();
			assertThat(table.policies("free", "login")).extracting(Policy::counts)
				.containsOnly(CountedResponses.FAILURES);
			// the shared default limits go on counting every response
			assertThat(table.policies("free", "default")).extracting(Policy::counts).containsOnly(CountedResponses.ALL);
		});
	}

	@Test
	void statusesAreListedAsAList() {
		this.runner.withPropertyValues("ratelimit.groups.login.count=401, 403, 429").run((context) -> {
			Policy policy = context.getBean(RateLimiter.class).policies().policies("free", "login").get(0);
			assertThat(policy.counts().spec()).isEqualTo("401, 403, 429");
			assertThat(policy.counts().counts(429)).isTrue();
			assertThat(policy.counts().counts(200)).isFalse();
		});
	}

	@Test
	void anUnknownValueStopsTheStartNamingTheProperty() {
		this.runner.withPropertyValues("ratelimit.groups.login.count=failure")
			.run((context) -> assertBindFailure(context, "ratelimit.groups.login.count", "failure",
					CountedResponses.EXAMPLE));
	}

	@Test
	void aStatusOutOfRangeStopsTheStart() {
		this.runner.withPropertyValues("ratelimit.groups.login.count=401, 999")
			.run((context) -> assertBindFailure(context, "ratelimit.groups.login.count", "401, 999",
					CountedResponses.EXAMPLE));
	}

	@Test
	void aCountOnAGroupWithoutALimitOfItsOwnStopsTheStart() {
		new WebApplicationContextRunner().withConfiguration(AutoConfigurations.of(RateLimitAutoConfiguration.class))
			.withPropertyValues("ratelimit.groups.login.paths=/login/**", "ratelimit.groups.login.count=failures",
					"ratelimit.ip.default=100/1m")
			.run((context) -> assertStartFailure(context, "ratelimit.groups.login.count", "failures",
					"ratelimit.ip.login=10/1m"));
	}

}
