package io.github.ratelimit.autoconfigure;

import java.time.Duration;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.server.PathContainer;

import io.github.ratelimit.core.LoginAttempt;
import io.github.ratelimit.core.LoginProtection;
import io.github.ratelimit.core.RateLimiter;
import io.github.ratelimit.identity.LoginAccountResolver;
import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.test.TestRequest;
import io.github.ratelimit.web.LoginAttempts;

import static io.github.ratelimit.autoconfigure.StartFailures.assertBindFailure;
import static io.github.ratelimit.autoconfigure.StartFailures.assertStartFailure;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code ratelimit.login-protection}: off unless enabled; once enabled, the limiter
 * counts failed logins per address and per account with the documented defaults, an
 * application's {@link LoginAccountResolver} names accounts, and a bad value stops the
 * start naming the property and a valid value.
 */
class RateLimitLoginProtectionAutoConfigurationTests {

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RateLimitAutoConfiguration.class))
		.withPropertyValues("ratelimit.ip.default=100/1m");

	private final ApplicationContextRunner plain = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RateLimitAutoConfiguration.class))
		.withPropertyValues("ratelimit.ip.default=100/1m");

	private final WebApplicationContextRunner enabled = this.runner
		.withPropertyValues("ratelimit.login-protection.enabled=true");

	@Test
	void offByDefault() {
		this.runner.run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context).doesNotHaveBean(LoginAttempts.class);
			RateLimiter limiter = context.getBean(RateLimiter.class);
			assertThat(limiter.protectsLogins()).isFalse();
			assertThat(limiter.loginProtection()).isNull();
		});
		this.plain.run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context).doesNotHaveBean(LoginAttempts.class);
			assertThat(context.getBean(RateLimiter.class).protectsLogins()).isFalse();
		});
	}

	@Test
	void enabledItCountsFailedLoginsWithTheDefaultBudgets() {
		this.enabled.run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context).hasSingleBean(LoginAttempts.class);
			RateLimiter limiter = context.getBean(RateLimiter.class);
			assertThat(limiter.protectsLogins()).isTrue();
			LoginProtection protection = limiter.loginProtection();
			assertThat(protection.perAddress().name()).isEqualTo("login-ip-failures");
			assertThat(protection.perAddress().dimension()).isEqualTo(Dimension.IP);
			assertThat(protection.perAddress().limit().spec()).isEqualTo("10/1m");
			assertThat(protection.perAccount().name()).isEqualTo("login-account-failures");
			assertThat(protection.perAccount().dimension()).isEqualTo(Dimension.ACCOUNT);
			assertThat(protection.perAccount().limit().spec()).isEqualTo("20/15m");
			// a 401 is a failed login, a success and a 403 are not
			assertThat(protection.isFailure(401)).isTrue();
			assertThat(protection.isFailure(200)).isFalse();
			assertThat(protection.isFailure(403)).isFalse();
			// an address refused 3 times in 10 minutes is banned for 15 minutes, doubling
			// up to a day
			assertThat(protection.bans().refusals()).isEqualTo(3);
			assertThat(protection.bans().window()).isEqualTo(Duration.ofMinutes(10));
			assertThat(protection.bans().duration()).isEqualTo(Duration.ofMinutes(15));
			assertThat(protection.bans().maxDuration()).isEqualTo(Duration.ofDays(1));
			assertThat(protection.bans().memory()).isEqualTo(Duration.ofDays(1));
			// the form login of Spring Security's defaults
			LoginAttempts attempts = context.getBean(LoginAttempts.class);
			assertThat(attempts.isFormLogin("POST", PathContainer.parsePath("/login"))).isTrue();
			assertThat(attempts.usernameParameter()).isEqualTo("username");
			assertThat(attempts.outcome(true, 302, "/login?error")).isEqualTo(401);
		});
	}

	@Test
	void theBudgetsAndTheFormLoginCanBeSet() {
		this.enabled
			.withPropertyValues("ratelimit.login-protection.per-address=5/1m",
					"ratelimit.login-protection.per-account=50/1h", "ratelimit.login-protection.count=auth-failures",
					"ratelimit.login-protection.paths=/api/login", "ratelimit.login-protection.form-login.path=/signin",
					"ratelimit.login-protection.form-login.username-parameter=email",
					"ratelimit.login-protection.form-login.failure-url=/signin?failed")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				LoginProtection protection = context.getBean(RateLimiter.class).loginProtection();
				assertThat(protection.perAddress().limit().spec()).isEqualTo("5/1m");
				assertThat(protection.perAccount().limit().spec()).isEqualTo("50/1h");
				assertThat(protection.isFailure(403)).isTrue();
				LoginAttempts attempts = context.getBean(LoginAttempts.class);
				assertThat(attempts.isFormLogin("POST", PathContainer.parsePath("/signin"))).isTrue();
				assertThat(attempts.isFormLogin("POST", PathContainer.parsePath("/login"))).isFalse();
				assertThat(attempts.usernameParameter()).isEqualTo("email");
				assertThat(attempts.outcome(true, 302, "/signin?failed")).isEqualTo(401);
				assertThat(attempts.attempt(TestRequest.from("203.0.113.7"), PathContainer.parsePath("/api/login"),
						(name) -> null))
					.isSameAs(LoginAttempt.ANONYMOUS);
			});
	}

	@Test
	void perAccountNoneLeavesOnlyTheAddressBudget() {
		this.enabled.withPropertyValues("ratelimit.login-protection.per-account=none").run((context) -> {
			assertThat(context).hasNotFailed();
			LoginProtection protection = context.getBean(RateLimiter.class).loginProtection();
			assertThat(protection.perAccount()).isNull();
			assertThat(protection.perAddress().limit().spec()).isEqualTo("10/1m");
		});
	}

	@Test
	void noBansWhenRefusalsIsZero() {
		this.enabled.withPropertyValues("ratelimit.login-protection.bans.refusals=0")
			.run((context) -> assertThat(context.getBean(RateLimiter.class).loginProtection().bans()).isNull());
	}

	@Test
	void anAccountResolverBeanNamesTheAccount() {
		this.enabled.withUserConfiguration(HeaderAccountResolver.class).run((context) -> {
			assertThat(context).hasNotFailed();
			LoginAttempts attempts = context.getBean(LoginAttempts.class);
			LoginAttempt attempt = attempts.attempt(
					TestRequest.from("203.0.113.7").header("Authorization", "Bearer xyz").header("X-User", "Alice"),
					PathContainer.parsePath("/orders"), (name) -> null);
			assertThat(attempt).isEqualTo(LoginAttempt.on("alice"));
		});
		// without the resolver, a bearer token names no account
		this.enabled.run((context) -> assertThat(context.getBean(LoginAttempts.class)
			.attempt(TestRequest.from("203.0.113.7").header("Authorization", "Bearer xyz").header("X-User", "Alice"),
					PathContainer.parsePath("/orders"), (name) -> null)
			.account()).isNull());
	}

	@Test
	void aPerAddressBudgetThatIsNoLimitStopsTheStart() {
		this.enabled.withPropertyValues("ratelimit.login-protection.per-address=lots/1m")
			.run((context) -> assertBindFailure(context, "ratelimit.login-protection.per-address", "lots/1m", "10/1m"));
	}

	@Test
	void aPerAddressBudgetOfZeroStopsTheStart() {
		// 0 would refuse every login, the successful ones included
		this.enabled.withPropertyValues("ratelimit.login-protection.per-address=0")
			.run((context) -> assertStartFailure(context, "ratelimit.login-protection.per-address", "'0'", "10/1m"));
	}

	@Test
	void aConcurrencyCapAsABudgetStopsTheStart() {
		this.enabled.withPropertyValues("ratelimit.login-protection.per-address=2 concurrent")
			.run((context) -> assertStartFailure(context, "ratelimit.login-protection.per-address", "2 concurrent",
					"10/1m"));
	}

	@Test
	void anInvalidPerAccountBudgetStopsTheStart() {
		this.enabled.withPropertyValues("ratelimit.login-protection.per-account=many")
			.run((context) -> assertBindFailure(context, "ratelimit.login-protection.per-account", "many", "20/15m"));
	}

	@Test
	void countingEveryResponseStopsTheStart() {
		this.enabled.withPropertyValues("ratelimit.login-protection.count=all")
			.run((context) -> assertStartFailure(context, "ratelimit.login-protection.count", "all", "401"));
	}

	@Test
	void anUnknownCountStopsTheStart() {
		this.enabled.withPropertyValues("ratelimit.login-protection.count=abc")
			.run((context) -> assertBindFailure(context, "ratelimit.login-protection.count", "abc", "401"));
	}

	@Test
	void aFormLoginPathWithoutLeadingSlashStopsTheStart() {
		this.enabled.withPropertyValues("ratelimit.login-protection.form-login.path=login")
			.run((context) -> assertStartFailure(context, "ratelimit.login-protection.form-login.path", "login",
					"/login"));
	}

	@Test
	void anEmptyUsernameParameterStopsTheStart() {
		this.enabled.withPropertyValues("ratelimit.login-protection.form-login.username-parameter=")
			.run((context) -> assertStartFailure(context, "ratelimit.login-protection.form-login.username-parameter",
					"''", "username"));
	}

	@Test
	void aMaxBanDurationShorterThanTheFirstStopsTheStart() {
		this.enabled
			.withPropertyValues("ratelimit.login-protection.bans.duration=1h",
					"ratelimit.login-protection.bans.max-duration=10m")
			.run((context) -> assertStartFailure(context, "ratelimit.login-protection.bans.max-duration", "PT10M",
					"24h"));
	}

	@Test
	void loginProtectionWithoutTheGateStopsTheStart() {
		this.enabled.withPropertyValues("ratelimit.filter.gate-enabled=false")
			.run((context) -> assertStartFailure(context, "ratelimit.login-protection.enabled", "true", "false"));
	}

	@Configuration(proxyBeanMethods = false)
	static class HeaderAccountResolver {

		@Bean
		LoginAccountResolver headerAccountResolver() {
			return (request) -> request.header("X-User");
		}

	}

}
