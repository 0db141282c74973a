package io.github.ratelimit.autoconfigure;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.webmvc.autoconfigure.DispatcherServletAutoConfiguration;
import org.springframework.boot.webmvc.autoconfigure.WebMvcAutoConfiguration;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.RouterFunctions;
import org.springframework.web.servlet.function.ServerResponse;

import io.github.ratelimit.annotation.RateLimited;
import io.github.ratelimit.core.RequestKeys;
import io.github.ratelimit.identity.RequestKeyResolver;
import io.github.ratelimit.policy.LimitParser;
import io.github.ratelimit.policy.Mode;
import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.policy.PolicyTable;

import static io.github.ratelimit.autoconfigure.StartFailures.assertStartFailure;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Keys of the application's choosing ({@code ratelimit.keys}): each source becomes a
 * resolver and each limit a policy; every mistake stops the start naming its property and
 * showing a valid value.
 */
class RateLimitKeysAutoConfigurationTests {

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RateLimitAutoConfiguration.class));

	private final WebApplicationContextRunner mvc = this.runner.withConfiguration(
			AutoConfigurations.of(DispatcherServletAutoConfiguration.class, WebMvcAutoConfiguration.class));

	@Test
	void everySourceBecomesAResolverAndEveryLimitAPolicy() {
		this.runner
			.withPropertyValues("ratelimit.keys.tenant.header=X-Tenant-Id", "ratelimit.keys.repo.path-variable=repo",
					"ratelimit.keys.repo.limits.repos=10/1m",
					"ratelimit.keys.product.expression=request.header('X-Product')",
					"ratelimit.keys.region.bean=regionKeyResolver", "ratelimit.groups.repos.paths=/v1/repos/{repo}/**",
					"ratelimit.groups.repos.mode=warn", "ratelimit.tiers.free.keys.tenant.default=100/1m",
					"ratelimit.tiers.free.keys.product.all=1000/day", "ratelimit.tiers.free.user.default=50/1m")
			.withBean("regionKeyResolver", RequestKeyResolver.class, () -> (request, identity) -> "eu")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				RequestKeys keys = context.getBean(RequestKeys.class);
				assertThat(keys.names()).containsExactlyInAnyOrder("tenant", "repo", "product", "region");
				PolicyTable table = context.getBean(PolicyTable.class);
				assertThat(table.policies("free", "repos")).extracting(Policy::name)
					.containsExactly("free-user-default", "free-tenant-default", "free-product-all",
							"backstop-repo-repos");
				// the group's mode, as for any limit its requests count in (a quota over
				// every group keeps the tier's)
				assertThat(table.policies("free", "repos")).filteredOn((policy) -> !"all".equals(policy.group()))
					.allSatisfy((policy) -> assertThat(policy.mode()).as(policy.name()).isEqualTo(Mode.WARN));
				assertThat(table.policies("anonymous", "repos")).extracting(Policy::name)
					.containsExactly("backstop-repo-repos");
			});
	}

	@Test
	void aBeanKeyIsTheNamedBean() {
		RequestKeyResolver region = (request, identity) -> identity.tier();
		this.runner.withPropertyValues("ratelimit.keys.region.bean=regionKeyResolver")
			.withBean("regionKeyResolver", RequestKeyResolver.class, () -> region)
			.withBean("otherResolver", RequestKeyResolver.class, () -> (request, identity) -> "other")
			.run((context) -> assertThat(context).hasNotFailed()
				.getBean(RequestKeys.class)
				.satisfies((keys) -> assertThat(keys.names()).containsExactly("region")));
	}

	@Test
	void aKeyWithoutASourceStopsTheStart() {
		this.runner.withPropertyValues("ratelimit.keys.tenant.limits.default=10/1m")
			.run((context) -> assertStartFailure(context, "ratelimit.keys.tenant", "no source",
					"ratelimit.keys.tenant.header=X-Tenant-Id"));
	}

	@Test
	void aKeyWithSeveralSourcesStopsTheStart() {
		this.runner
			.withPropertyValues("ratelimit.keys.tenant.header=X-Tenant-Id",
					"ratelimit.keys.tenant.expression=identity.org")
			.run((context) -> assertStartFailure(context, "ratelimit.keys.tenant",
					"header=X-Tenant-Id, expression=identity.org", "ratelimit.keys.tenant.header=X-Tenant-Id"));
	}

	@Test
	void aMalformedExpressionStopsTheStart() {
		this.runner.withPropertyValues("ratelimit.keys.product.expression=request.header('X-Product'")
			.run((context) -> assertStartFailure(context, "ratelimit.keys.product.expression",
					"request.header('X-Product'", "request.header('X-Product')"));
	}

	@Test
	void anExpressionThatNamesATypeStopsTheStart() {
		this.runner.withPropertyValues("ratelimit.keys.product.expression=T(java.lang.Runtime).getRuntime().exec('id')")
			.run((context) -> assertThat(assertStartFailure(context, "ratelimit.keys.product.expression",
					"T(java.lang.Runtime)", "request.header('X-Product')")
				.getDescription()).contains("type reference"));
	}

	@Test
	void anExpressionThatCallsAConstructorStopsTheStart() {
		this.runner.withPropertyValues("ratelimit.keys.product.expression=new java.lang.ProcessBuilder('id').start()")
			.run((context) -> assertThat(assertStartFailure(context, "ratelimit.keys.product.expression",
					"new java.lang.ProcessBuilder", "request.header('X-Product')")
				.getDescription()).contains("constructor"));
	}

	@Test
	void anUnknownBeanStopsTheStart() {
		this.runner.withPropertyValues("ratelimit.keys.region.bean=regionResolver")
			.withBean("regionKeyResolver", RequestKeyResolver.class, () -> (request, identity) -> "eu")
			.run((context) -> assertStartFailure(context, "ratelimit.keys.region.bean", "regionResolver",
					"regionKeyResolver"));
	}

	@Test
	void aBeanOfAnotherTypeStopsTheStart() {
		this.runner.withPropertyValues("ratelimit.keys.region.bean=region")
			.withBean("region", String.class, () -> "eu")
			.run((context) -> assertThat(
					assertStartFailure(context, "ratelimit.keys.region.bean", "region", "regionKeyResolver")
						.getDescription())
				.contains("java.lang.String"));
	}

	@Test
	void aKeyNamedAsADimensionStopsTheStart() {
		this.runner.withPropertyValues("ratelimit.keys.user.header=X-User")
			.run((context) -> assertStartFailure(context, "ratelimit.keys.user", "user",
					"ratelimit.keys.tenant.header=X-Tenant-Id"));
	}

	@Test
	void aHeaderThatIsNoHeaderNameStopsTheStart() {
		this.runner.withPropertyValues("ratelimit.keys.tenant.header=X Tenant")
			.run((context) -> assertStartFailure(context, "ratelimit.keys.tenant.header", "X Tenant", "X-Tenant-Id"));
	}

	@Test
	void aTierLimitOfAnUnknownKeyStopsTheStart() {
		this.runner
			.withPropertyValues("ratelimit.keys.tenant.header=X-Tenant-Id",
					"ratelimit.tiers.free.keys.tennant.default=10/1m")
			.run((context) -> assertThat(assertStartFailure(context, "ratelimit.tiers.free.keys.tennant", "tennant",
					"ratelimit.keys.tennant.header=X-Tenant-Id")
				.getDescription()).contains("configured keys are [tenant]"));
	}

	@Test
	void aKeyLimitOfAnUnknownGroupStopsTheStart() {
		this.runner
			.withPropertyValues("ratelimit.keys.tenant.header=X-Tenant-Id", "ratelimit.keys.tenant.limits.repo=10/1m")
			.run((context) -> assertStartFailure(context, "ratelimit.keys.tenant.limits.repo", "10/1m",
					"ratelimit.keys.tenant.limits.default=" + LimitParser.EXAMPLE));
		this.runner
			.withPropertyValues("ratelimit.keys.tenant.header=X-Tenant-Id",
					"ratelimit.tiers.free.keys.tenant.repo=10/1m")
			.run((context) -> assertStartFailure(context, "ratelimit.tiers.free.keys.tenant.repo", "10/1m",
					"ratelimit.tiers.free.keys.tenant.default="));
	}

	@Test
	void aGroupPatternWithoutTheKeysPathVariableStopsTheStart() {
		this.mvc
			.withPropertyValues("ratelimit.keys.repo.path-variable=repo", "ratelimit.groups.repos.paths=/v1/repos/**",
					"ratelimit.tiers.free.keys.repo.repos=10/1m")
			.run((context) -> assertStartFailure(context, "ratelimit.groups.repos.paths[0]", "/v1/repos/**",
					"/v1/repos/{repo}/**"));
	}

	@Test
	void rateLimitedPerAKeyThatIsNotConfiguredStopsTheStart() {
		this.mvc.withPropertyValues("ratelimit.keys.tenant.header=X-Tenant-Id")
			.withUserConfiguration(PerRepoController.class)
			.run((context) -> assertStartFailure(context, "@RateLimited(per) of PerRepoController.issues", "repo",
					"ratelimit.keys.repo.header=X-Tenant-Id"));
	}

	@Test
	void rateLimitedPerAPathVariableTheMappingLacksStopsTheStart() {
		this.mvc.withPropertyValues("ratelimit.keys.repo.path-variable=name")
			.withUserConfiguration(PerRepoController.class)
			.run((context) -> assertStartFailure(context, "@RateLimited(per) of PerRepoController.issues", "repo",
					"/v1/repos/{name}/issues"));
	}

	@Test
	void aRouteLimitedPerAKeyThatIsNotConfiguredStopsTheStartNamingTheRoute() {
		this.mvc.withPropertyValues("ratelimit.keys.tenant.header=X-Tenant-Id")
			.withBean(RouterFunction.class,
					() -> RouterFunctions.route()
						.GET("/fn/repos/{repo}/forks", (request) -> ServerResponse.ok().build())
						.withAttribute(RateLimited.LIMIT_ATTRIBUTE, "5/1m")
						.withAttribute(RateLimited.PER_ATTRIBUTE, "repo")
						.build())
			.run((context) -> assertStartFailure(context,
					"route attribute io.github.ratelimit.per of route (GET && /fn/repos/{repo}/forks)", "repo",
					".withAttribute(RateLimited.PER_ATTRIBUTE, \"user\")"));
	}

	@Test
	void rateLimitedPerAConfiguredKeyStarts() {
		this.mvc.withPropertyValues("ratelimit.keys.repo.path-variable=repo")
			.withUserConfiguration(PerRepoController.class)
			.run((context) -> assertThat(context).hasNotFailed()
				.getBean(RequestKeys.class)
				.satisfies((keys) -> assertThat(keys.names()).containsExactly("repo")));
	}

	@RestController
	static class PerRepoController {

		@RateLimited(limit = "5/1m", per = "repo")
		@GetMapping("/v1/repos/{repo}/issues")
		String issues() {
			return "issues";
		}

	}

}
