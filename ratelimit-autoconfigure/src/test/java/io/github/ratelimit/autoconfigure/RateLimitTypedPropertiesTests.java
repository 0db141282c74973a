package io.github.ratelimit.autoconfigure;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.ConfigDataApplicationContextInitializer;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.web.bind.annotation.RequestMethod;

import io.github.ratelimit.core.LoginProtection;
import io.github.ratelimit.core.RateLimiter;

import static io.github.ratelimit.autoconfigure.StartFailures.assertStartFailure;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Properties bound to types rather than strings: each value is read once by the binder,
 * and a bad one is reported with where it was set.
 */
class RateLimitTypedPropertiesTests {

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RateLimitAutoConfiguration.class));

	@Test
	void aBadValueInAFileIsReportedWithItsFileAndLine() {
		this.runner.withInitializer(new ConfigDataApplicationContextInitializer())
			.withPropertyValues("spring.config.location=classpath:/bad-values/login-protection.properties")
			.run((context) -> {
				assertThat(context).hasFailed();
				FailureAnalysis analysis = new RateLimitBindFailureAnalyzer().analyze(context.getStartupFailure());
				assertThat(analysis).as("%s", context.getStartupFailure()).isNotNull();
				assertThat(analysis.getDescription()).contains("'ratelimit.login-protection.per-account'")
					.contains("'20 per hour'")
					.contains("bad-values/login-protection.properties")
					.contains(" - 3:");
				assertThat(analysis.getAction()).contains("20/15m");
			});
	}

	@Test
	void groupMethodsBindLenientlyAndAnUnknownOneIsReportedWithTheValidValues() {
		this.runner
			.withPropertyValues("ratelimit.groups.auth.paths=/auth/**", "ratelimit.groups.auth.methods=post, Get")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(RateLimitProperties.class).getGroups().get("auth").getMethods())
					.containsExactly(RequestMethod.POST, RequestMethod.GET);
			});
		this.runner.withPropertyValues("ratelimit.groups.auth.paths=/auth/**", "ratelimit.groups.auth.methods=FETCH")
			.run((context) -> {
				assertThat(context).hasFailed();
				// an enum: Boot's own analyzer reports it, with the valid values
				assertThat(new RateLimitBindFailureAnalyzer().analyze(context.getStartupFailure())).isNull();
				assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("FETCH");
				assertThat(context.getStartupFailure()).cause()
					.cause()
					.isInstanceOfSatisfying(BindException.class, (ex) -> assertThat(ex.getProperty().getName())
						.hasToString("ratelimit.groups.auth.methods"));
			});
	}

	@Test
	void perAccountBudgetIsOnByDefaultAndNoneOrNothingTurnsItOff() {
		WebApplicationContextRunner enabled = this.runner.withPropertyValues("ratelimit.login-protection.enabled=true");
		enabled
			.run((context) -> assertThat(loginProtection(context.getBean(RateLimiter.class)).perAccount()).isNotNull()
				.satisfies((policy) -> assertThat(policy.limit().spec()).isEqualTo("20/15m")));
		enabled.withPropertyValues("ratelimit.login-protection.per-account=None")
			.run((context) -> assertThat(loginProtection(context.getBean(RateLimiter.class)).perAccount()).isNull());
		enabled.withPropertyValues("ratelimit.login-protection.per-account=")
			.run((context) -> assertThat(loginProtection(context.getBean(RateLimiter.class)).perAccount()).isNull());
	}

	@Test
	void aKeywordListedWithStatusesStopsTheStartNamingTheProperty() {
		this.runner
			.withPropertyValues("ratelimit.groups.login.paths=/login/**", "ratelimit.ip.login=10/1m",
					"ratelimit.groups.login.count=failures, 401")
			.run((context) -> assertThat(
					assertStartFailure(context, "ratelimit.groups.login.count", "failures, 401", "auth-failures")
						.getDescription())
				.contains("statuses are listed alone"));
	}

	@Test
	void aKeyHashThatIsNoHashIsReportedByTheBinderWithoutShowingIt() {
		this.runner
			.withPropertyValues("ratelimit.identity.api-keys[0].key-sha256=sk_live_my_raw_key",
					"ratelimit.identity.api-keys[0].user=alice")
			.run((context) -> {
				assertThat(context).hasFailed();
				FailureAnalysis analysis = new RateLimitBindFailureAnalyzer().analyze(context.getStartupFailure());
				assertThat(analysis).as("%s", context.getStartupFailure()).isNotNull();
				assertThat(analysis.getDescription()).contains("'ratelimit.identity.api-keys[0].key-sha256'")
					.contains("(hidden)")
					.contains("64 hex digits")
					.contains("(set in")
					.doesNotContain("sk_live_my_raw_key");
				assertThat(analysis.getAction()).contains("sha256sum");
			});
		this.runner
			.withPropertyValues("ratelimit.identity.api-keys[0].key-sha256=" + "AB".repeat(32),
					"ratelimit.identity.api-keys[0].user=alice")
			.run((context) -> assertThat(
					context.getBean(RateLimitProperties.class).getIdentity().getApiKeys().get(0).getKeySha256())
				.hasToString("ab".repeat(32)));
	}

	private static LoginProtection loginProtection(RateLimiter limiter) {
		LoginProtection protection = limiter.loginProtection();
		assertThat(protection).isNotNull();
		return protection;
	}

}
