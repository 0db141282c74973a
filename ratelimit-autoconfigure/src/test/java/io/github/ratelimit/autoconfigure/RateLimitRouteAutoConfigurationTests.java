package io.github.ratelimit.autoconfigure;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.http.server.RequestPath;
import org.springframework.web.reactive.function.server.ServerResponse;

import io.github.ratelimit.annotation.RateLimited;
import io.github.ratelimit.policy.Classification;
import io.github.ratelimit.web.EndpointClassifier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Functional routes with rate-limit attributes are found while the application starts, on
 * both stacks.
 */
@ExtendWith(OutputCaptureExtension.class)
class RateLimitRouteAutoConfigurationTests {

	private final WebApplicationContextRunner servlet = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RateLimitAutoConfiguration.class));

	private final ReactiveWebApplicationContextRunner reactive = new ReactiveWebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RateLimitAutoConfiguration.class));

	@Test
	void reactiveRouteAttributesClassifyFromTheStart() {
		this.reactive.withPropertyValues("ratelimit.groups.export.cost=1")
			.withBean(org.springframework.web.reactive.function.server.RouterFunction.class,
					() -> org.springframework.web.reactive.function.server.RouterFunctions.route()
						.GET("/fn/export", (request) -> ServerResponse.ok().build())
						.withAttribute(RateLimited.GROUP_ATTRIBUTE, "export")
						.build())
			.run((context) -> assertThat(classify(context.getBean(EndpointClassifier.class), "/fn/export"))
				.isEqualTo(Classification.of("export", 1)));
	}

	@Test
	void groupNamedOnlyByRoutesTakesItsConfiguredCostAndTierLimits(CapturedOutput output) {
		this.reactive.withPropertyValues("ratelimit.groups.reports.cost=2", "ratelimit.tiers.gold.user.reports=5/1m")
			.withBean(org.springframework.web.reactive.function.server.RouterFunction.class, () -> route("reports"))
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(classify(context.getBean(EndpointClassifier.class), "/fn/reports"))
					.isEqualTo(Classification.of("reports", 2));
				assertThat(output).contains("Rate-limited handlers and routes: GET /fn/reports: group reports");
			});
	}

	@Test
	void groupThatNoConfigurationKnowsStopsTheStart() {
		this.reactive.withPropertyValues("ratelimit.groups.reports.cost=2")
			.withBean(org.springframework.web.reactive.function.server.RouterFunction.class, () -> route("reprots"))
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(new RateLimitConfigurationFailureAnalyzer().analyze(context.getStartupFailure())
					.getDescription()).contains("reprots").contains("/fn/reports");
			});
	}

	@Test
	void groupWithoutPathsThatNothingNamesStopsTheStart() {
		this.reactive.withPropertyValues("ratelimit.groups.orphan.cost=2").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(
					new RateLimitConfigurationFailureAnalyzer().analyze(context.getStartupFailure()).getDescription())
				.contains("ratelimit.groups.orphan.paths");
		});
	}

	private static org.springframework.web.reactive.function.server.RouterFunction<ServerResponse> route(String group) {
		return org.springframework.web.reactive.function.server.RouterFunctions.route()
			.GET("/fn/reports", (request) -> ServerResponse.ok().build())
			.withAttribute(RateLimited.GROUP_ATTRIBUTE, group)
			.build();
	}

	@Test
	void invalidReactiveRouteAttributeStopsTheStart() {
		this.reactive
			.withBean(org.springframework.web.reactive.function.server.RouterFunction.class,
					() -> org.springframework.web.reactive.function.server.RouterFunctions.route()
						.GET("/fn/export", (request) -> ServerResponse.ok().build())
						.withAttribute(RateLimited.COST_ATTRIBUTE, "ten")
						.build())
			.run((context) -> assertThat(context).getFailure()
				.isInstanceOf(IllegalArgumentException.class)
				.hasMessageContaining(RateLimited.COST_ATTRIBUTE)
				.hasMessageContaining("/fn/export"));
	}

	@Test
	void invalidServletRouteAttributeStopsTheStart() {
		this.servlet
			.withBean(org.springframework.web.servlet.function.RouterFunction.class,
					() -> org.springframework.web.servlet.function.RouterFunctions.route()
						.GET("/fn/export",
								(request) -> org.springframework.web.servlet.function.ServerResponse.ok().build())
						.withAttribute(RateLimited.EXEMPT_ATTRIBUTE, "maybe")
						.build())
			.run((context) -> assertThat(context).getFailure()
				.isInstanceOf(IllegalArgumentException.class)
				.hasMessageContaining(RateLimited.EXEMPT_ATTRIBUTE));
	}

	@Test
	void handlerCostLargerThanItsOwnLimitStopsTheStart() {
		this.servlet
			.withConfiguration(AutoConfigurations.of(
					org.springframework.boot.webmvc.autoconfigure.DispatcherServletAutoConfiguration.class,
					org.springframework.boot.webmvc.autoconfigure.WebMvcAutoConfiguration.class))
			.withPropertyValues("ratelimit.tiers.anonymous.ip.default=100/1m")
			.withUserConfiguration(OverpricedController.class)
			.run((context) -> StartFailures.assertStartFailure(context,
					"@RateLimited(cost) of OverpricedController.report", "10", "@RateLimited(cost = 5"));
	}

	@Test
	void backsOffWhenUserDefinesEndpointClassifier() {
		EndpointClassifier own = new EndpointClassifier(List.of(), List.of(), List::of);
		this.reactive.withBean(EndpointClassifier.class, () -> own)
			.run((context) -> assertThat(context).getBean(EndpointClassifier.class).isSameAs(own));
	}

	private static Classification classify(EndpointClassifier classifier, String path) {
		return classifier.classify("GET", RequestPath.parse(path, null).pathWithinApplication());
	}

	@org.springframework.web.bind.annotation.RestController
	static class OverpricedController {

		@RateLimited(cost = 10, limit = "5/1m")
		@org.springframework.web.bind.annotation.GetMapping("/reports")
		String report() {
			return "report";
		}

	}

}
