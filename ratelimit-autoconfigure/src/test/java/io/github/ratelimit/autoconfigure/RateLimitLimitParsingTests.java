package io.github.ratelimit.autoconfigure;

import java.time.ZoneId;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.mockito.MockedStatic;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

import io.github.ratelimit.core.RateLimiter;
import io.github.ratelimit.policy.LimitParser;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.CALLS_REAL_METHODS;
import static org.mockito.Mockito.mockStatic;
import static org.mockito.Mockito.times;

/**
 * Every limit string of the configuration is parsed once, by the binder, and the model is
 * built from what it parsed: the parser is called once per configured limit at startup.
 */
class RateLimitLimitParsingTests {

	/** Tiers, a tier-wide quota, groups, the backstop, concurrency and login budgets. */
	private static final List<String> LIMITS = List.of("ratelimit.tiers.premium.user.default=100/1m, 1000/1h",
			"ratelimit.tiers.premium.user.export=2 concurrent, 10/1m", "ratelimit.tiers.premium.org.default=5000/1m",
			"ratelimit.tiers.premium.quota.org=100000/month", "ratelimit.tiers.anonymous.ip.default=20/1m",
			"ratelimit.ip.default=2000/1m", "ratelimit.ip.export=50/1m", "ratelimit.login-protection.per-address=5/1m",
			"ratelimit.login-protection.per-account=30/1h");

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RateLimitAutoConfiguration.class))
		.withPropertyValues(LIMITS.toArray(String[]::new))
		.withPropertyValues("ratelimit.groups.export.paths=/export/**", "ratelimit.groups.export.concurrency=2",
				"ratelimit.groups.export.count=failures", "ratelimit.quotas.zone=Europe/Berlin",
				"ratelimit.login-protection.enabled=true");

	@Test
	void eachConfiguredLimitIsParsedOnceAtStartup() {
		// every parse goes through parse(text, zone); the mock counts calls on this
		// thread, where the context starts
		try (MockedStatic<LimitParser> parser = mockStatic(LimitParser.class, CALLS_REAL_METHODS)) {
			this.runner.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(RateLimiter.class).policies().policiesOfGroup("export")).isNotEmpty();
			});
			for (String limit : LIMITS) {
				String text = limit.substring(limit.indexOf('=') + 1);
				parser.verify(() -> LimitParser.parse(eq(text), any(ZoneId.class)), times(1));
			}
			parser.verify(() -> LimitParser.parse(anyString(), any(ZoneId.class)), times(LIMITS.size()));
		}
	}

}
