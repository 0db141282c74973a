package io.github.ratelimit.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import io.github.ratelimit.policy.Bandwidth;
import io.github.ratelimit.policy.FixedWindow;
import io.github.ratelimit.policy.LeakyBucket;
import io.github.ratelimit.policy.LimitParser;
import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.policy.PolicyTable;
import io.github.ratelimit.policy.SlidingWindow;
import io.github.ratelimit.test.redis.RedisTestServer;

import static io.github.ratelimit.autoconfigure.StartFailures.assertBindFailure;
import static io.github.ratelimit.autoconfigure.StartFailures.assertStartFailure;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fixed windows, sliding windows and leaky bucket as configured: they bind, a misspelt
 * one is reported with every kind, the Bucket4j strategy refuses them at the start, and
 * the IDE hints are valid limits.
 */
class LimitKindsAutoConfigurationTests {

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RateLimitAutoConfiguration.class));

	@Test
	void everyKindBindsIntoThePolicyTable() {
		this.runner
			.withPropertyValues("ratelimit.tiers.premium.user.default=100/1m fixed, 1000/1h sliding window",
					"ratelimit.tiers.premium.org.default=10/1s leaky bucket")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				List<Bandwidth> items = new ArrayList<>();
				for (Policy policy : context.getBean(PolicyTable.class).policies("premium", "default")) {
					items.addAll(policy.limit().bandwidths());
				}
				assertThat(items).hasAtLeastOneElementOfType(FixedWindow.class)
					.hasAtLeastOneElementOfType(SlidingWindow.class)
					.hasAtLeastOneElementOfType(LeakyBucket.class);
			});
	}

	@Test
	void misspeltKindIsReportedWhereItWasSetWithEveryKind() {
		this.runner.withPropertyValues("ratelimit.tiers.premium.user.default=100/1m fixd").run((context) -> {
			FailureAnalysis analysis = assertBindFailure(context, "ratelimit.tiers.premium.user.default", "100/1m fixd",
					"50/1m, 500/1h");
			assertThat(analysis.getDescription()).contains("fixed").contains("sliding").contains("leaky");
			assertThat(analysis.getAction()).contains("100/1m fixed")
				.contains("100/1m sliding")
				.contains("10/1s leaky")
				.contains("10000/month")
				.contains("2 concurrent");
		});
	}

	@ParameterizedTest
	@CsvSource({ "100/1m fixed, a fixed window", "100/1m sliding, a sliding window", "10/1s leaky, a leaky bucket" })
	void bucket4jStrategyRefusesTheKindNamingItsPropertyAndAskingForTheScript(String limit, String kind) {
		new WebApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class,
					RateLimitRedisAutoConfiguration.class, RateLimitAutoConfiguration.class))
			.withPropertyValues("spring.data.redis.url=" + RedisTestServer.url(),
					"ratelimit.storage.redis.strategy=bucket4j", "ratelimit.tiers.premium.user.default=100/1m",
					"ratelimit.tiers.premium.org.default=" + limit)
			.run((context) -> {
				FailureAnalysis analysis = assertStartFailure(context, "ratelimit.storage.redis.strategy", "bucket4j",
						"script");
				assertThat(analysis.getDescription())
					.contains("ratelimit.tiers.premium.org.default (" + limit + ") is " + kind)
					.contains("needs the script strategy");
			});
	}

	@Test
	void bucket4jStrategyRefusesAKindInTheBackstop() {
		new WebApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class,
					RateLimitRedisAutoConfiguration.class, RateLimitAutoConfiguration.class))
			.withPropertyValues("spring.data.redis.url=" + RedisTestServer.url(),
					"ratelimit.storage.redis.strategy=bucket4j", "ratelimit.ip.default=2000/1m sliding")
			.run((context) -> assertThat(
					assertStartFailure(context, "ratelimit.storage.redis.strategy", "bucket4j", "script")
						.getDescription())
				.contains("ratelimit.ip.default (2000/1m sliding) is a sliding window"));
	}

	@Test
	void ideHintsOfLimitStringsAreValidLimitsOfEveryKind() throws IOException {
		JsonNode hints;
		try (InputStream in = getClass().getClassLoader()
			.getResourceAsStream("META-INF/additional-spring-configuration-metadata.json")) {
			assertThat(in).isNotNull();
			hints = JsonMapper.builder().build().readTree(in).get("hints");
		}
		List<String> values = new ArrayList<>();
		hints.forEach((hint) -> {
			if (hint.get("name").asString().equals("ratelimit.ip.values")) {
				hint.get("values").forEach((value) -> values.add(value.get("value").asString()));
			}
		});
		List<Class<?>> kinds = new ArrayList<>();
		for (String value : values) {
			LimitParser.parse(value).bandwidths().forEach((item) -> kinds.add(item.getClass()));
		}
		assertThat(kinds).contains(FixedWindow.class, SlidingWindow.class, LeakyBucket.class);
	}

}
