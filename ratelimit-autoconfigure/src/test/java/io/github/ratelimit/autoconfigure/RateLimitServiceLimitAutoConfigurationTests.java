package io.github.ratelimit.autoconfigure;

import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

import io.github.ratelimit.actuate.PolicyDescriptor;
import io.github.ratelimit.actuate.RateLimitsEndpoint;
import io.github.ratelimit.policy.LimitParser;
import io.github.ratelimit.policy.Mode;
import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.policy.PolicyTable;

import static io.github.ratelimit.autoconfigure.StartFailures.assertBindFailure;
import static io.github.ratelimit.autoconfigure.StartFailures.assertStartFailure;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * The service's budgets ({@code ratelimit.service.<group>}) as configured: bound and
 * mapped into the policy table, and the start failures that name a bad one.
 */
class RateLimitServiceLimitAutoConfigurationTests {

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RateLimitAutoConfiguration.class))
		.withPropertyValues("ratelimit.groups.export.paths=/export/**");

	@Test
	void budgetsOfAGroupAndOfTheWholeApiApplyToEveryTier() {
		this.runner
			.withPropertyValues("ratelimit.tiers.premium.user.default=100/1m", "ratelimit.service.export=1000/1m",
					"ratelimit.service.all=5000/1m", "ratelimit.groups.export.mode=warn",
					"ratelimit.groups.export.warn-at=80%")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				RateLimitProperties properties = context.getBean(RateLimitProperties.class);
				PolicyTable table = context.getBean(PolicyTable.class);
				assertThat(table.policies("premium", "export")).extracting(Policy::name)
					.containsExactly("premium-user-default", "service-export", "service-all");
				assertThat(table.policies("anonymous", "export")).extracting(Policy::name)
					.containsExactly("service-export", "service-all");
				Policy export = table.policies("anonymous", "export").get(0);
				// bound once: the table parsed nothing again
				assertThat(export.limit()).isSameAs(properties.getService().get("export"));
				assertThat(export.mode()).isEqualTo(Mode.WARN);
				assertThat(export.warnAtPercent()).isEqualTo(80);
			});
	}

	@Test
	void aServiceBudgetAloneIsALimitOfTheGroupItCounts() {
		// a group that counts by outcome needs a limit of its own: its service budget is
		// one
		this.runner.withPropertyValues("ratelimit.service.export=100/1m", "ratelimit.groups.export.count=failures")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(PolicyTable.class).policies("anonymous", "export").get(0).countsByOutcome())
					.isTrue();
			});
	}

	@Test
	void aBudgetOfAnUnknownGroupStopsTheStart() {
		this.runner.withPropertyValues("ratelimit.service.exprot=10/1m")
			.run((context) -> assertThat(assertStartFailure(context, "ratelimit.service.exprot", "10/1m",
					"ratelimit.service.default=1000/1m")
				.getDescription()).contains("unknown endpoint group 'exprot'").contains("[export, default] and all"));
	}

	@Test
	void aBudgetOfZeroStopsTheStartPointingAtTheBackstop() {
		this.runner.withPropertyValues("ratelimit.service.export=0")
			.run((context) -> assertThat(
					assertStartFailure(context, "ratelimit.service.export", "0", "ratelimit.service.export=1000/1m")
						.getDescription())
				.contains("ratelimit.ip.export=0"));
	}

	@Test
	void aMalformedBudgetStopsTheStartWhereItWasSet() {
		this.runner.withPropertyValues("ratelimit.service.export=lots/1m")
			.run((context) -> assertBindFailure(context, "ratelimit.service.export", "lots/1m", LimitParser.EXAMPLE));
	}

	@Test
	void aCostNoServiceBudgetCanHoldStopsTheStart() {
		this.runner.withPropertyValues("ratelimit.service.export=5/1m", "ratelimit.groups.export.cost=10")
			.run((context) -> assertThat(
					assertStartFailure(context, "ratelimit.groups.export.cost", "10", "5").getDescription())
				.contains("service-export"));
	}

	@Test
	void aTierNamedServiceStopsTheStart() {
		this.runner.withPropertyValues("ratelimit.tiers.service.user.default=10/1m")
			.run((context) -> assertThat(
					assertStartFailure(context, "ratelimit.tiers.service", "service", "premium").getDescription())
				.contains("reserved name"));
	}

	@Test
	void theActuatorEndpointListsTheServicesBudgetsUnderEveryTier() {
		new WebApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(EndpointAutoConfiguration.class, WebEndpointAutoConfiguration.class,
							RateLimitAutoConfiguration.class, RateLimitEndpointAutoConfiguration.class))
			.withPropertyValues("management.endpoints.web.exposure.include=ratelimits",
					"ratelimit.groups.export.paths=/export/**", "ratelimit.tiers.premium.user.default=100/1m",
					"ratelimit.service.export=1000/1m")
			.run((context) -> {
				Map<String, List<PolicyDescriptor>> premium = context.getBean(RateLimitsEndpoint.class)
					.ratelimits()
					.policies()
					.get("premium");
				assertThat(premium.get("export"))
					.extracting(PolicyDescriptor::name, PolicyDescriptor::dimension, PolicyDescriptor::limit)
					.containsExactly(tuple("premium-user-default", "user", "100/1m"),
							tuple("service-export", "service", "1000/1m"));
				assertThat(premium.get("default")).extracting(PolicyDescriptor::name)
					.containsExactly("premium-user-default");
			});
	}

}
