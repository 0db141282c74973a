package io.github.ratelimit.autoconfigure;

import java.time.Duration;
import java.time.ZoneId;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

import io.github.ratelimit.policy.CalendarQuota;
import io.github.ratelimit.policy.Mode;
import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.policy.PolicyTable;
import io.github.ratelimit.test.redis.RedisTestServer;

import static io.github.ratelimit.autoconfigure.StartFailures.assertStartFailure;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The policy model's properties: quotas and their zone, modes, soft limits, concurrency,
 * waiting; and the start failures that name a bad one.
 */
class RateLimitPolicyModelAutoConfigurationTests {

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RateLimitAutoConfiguration.class));

	@Test
	void everyConfiguredLimitIsParsedOnceByTheBinderAndTheTableUsesItAsBound() {
		this.runner
			.withPropertyValues("ratelimit.tiers.premium.user.default=100/1m, 1000/1h",
					"ratelimit.tiers.premium.quota.org=5000/day", "ratelimit.ip.default=2000/1m")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				RateLimitProperties properties = context.getBean(RateLimitProperties.class);
				PolicyTable table = context.getBean(PolicyTable.class);
				// the same objects the binder made: the table parsed no limit string
				// again
				assertThat(table.policies("premium", "default")).extracting(Policy::limit)
					.anySatisfy((limit) -> assertThat(limit)
						.isSameAs(properties.getTiers().get("premium").getUser().get("default")))
					.anySatisfy((limit) -> assertThat(limit)
						.isSameAs(properties.getTiers().get("premium").getQuota().get("org")));
				assertThat(table.policies("anonymous", "default")).extracting(Policy::limit)
					.anySatisfy((limit) -> assertThat(limit).isSameAs(properties.getIp().get("default")));
			});
	}

	@Test
	void tierQuotasModesAndSoftLimitsBecomePolicies() {
		this.runner
			.withPropertyValues("ratelimit.quotas.zone=Europe/Berlin", "ratelimit.mode=warn", "ratelimit.warn-at=90%",
					"ratelimit.tiers.premium.quota.org=1000000/month", "ratelimit.tiers.premium.user.default=100/1m",
					"ratelimit.tiers.premium.warn-at=80%", "ratelimit.tiers.premium.mode=enforce",
					"ratelimit.tiers.free.ip.default=10/1m", "ratelimit.groups.search.paths=/search/**",
					"ratelimit.groups.search.mode=observe", "ratelimit.groups.export.paths=/export/**",
					"ratelimit.groups.export.concurrency=2", "ratelimit.groups.export.max-wait=200ms")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				PolicyTable table = context.getBean(PolicyTable.class);
				// org before user: the tie-break order
				Policy quota = table.policies("premium", "default").get(0);
				Policy user = table.policies("premium", "default").get(1);
				assertThat(user.name()).isEqualTo("premium-user-default");
				assertThat(user.mode()).as("the tier's mode wins over the global one").isEqualTo(Mode.ENFORCE);
				assertThat(user.warnAtPercent()).isEqualTo(80);
				assertThat(quota.name()).isEqualTo("premium-org-all");
				assertThat(quota.limit().bandwidths()).singleElement()
					.isEqualTo(new CalendarQuota(1_000_000, io.github.ratelimit.policy.CalendarPeriod.MONTH,
							ZoneId.of("Europe/Berlin")));
				assertThat(table.policies("free", "default").get(0).mode()).isEqualTo(Mode.WARN);
				assertThat(table.policies("free", "default").get(0).warnAtPercent()).isEqualTo(90);
				assertThat(table.policies("free", "search").get(0).mode())
					.as("a group's mode wins, also over the default limit its requests inherit")
					.isEqualTo(Mode.OBSERVE);
				assertThat(table.groupConcurrency("export", true).name()).isEqualTo("group-user-export");
				assertThat(table.groupConcurrency("export", false).name()).isEqualTo("group-ip-export");
				assertThat(table.options().group("export").maxWait()).isEqualTo(Duration.ofMillis(200));
			});
	}

	@Test
	void malformedSoftLimitStopsTheStartNamingTheProperty() {
		this.runner
			.withPropertyValues("ratelimit.tiers.premium.user.default=100/1m", "ratelimit.tiers.premium.warn-at=120%")
			.run((context) -> {
				// reported by the binder, with where the value was set, like a malformed
				// limit
				assertThat(context).hasFailed();
				FailureAnalysis analysis = new RateLimitBindFailureAnalyzer().analyze(context.getStartupFailure());
				assertThat(analysis).as("%s", context.getStartupFailure()).isNotNull();
				assertThat(analysis.getDescription()).contains("ratelimit.tiers.premium.warn-at")
					.contains("120%")
					.contains("between 1% and 99%");
				assertThat(analysis.getAction()).contains("80%");
			});
	}

	@Test
	void overlongMaxWaitStopsTheStart() {
		this.runner
			.withPropertyValues("ratelimit.groups.export.paths=/export/**", "ratelimit.groups.export.max-wait=1m")
			.run((context) -> assertStartFailure(context, "ratelimit.groups.export.max-wait", "PT1M", "200ms"));
	}

	@Test
	void concurrencyBeyondTheCapStopsTheStart() {
		this.runner
			.withPropertyValues("ratelimit.groups.export.paths=/export/**", "ratelimit.groups.export.concurrency=5000")
			.run((context) -> assertStartFailure(context, "ratelimit.groups.export.concurrency", "5000", "2"));
	}

	@Test
	void aReservedTierNameStopsTheStart() {
		this.runner.withPropertyValues("ratelimit.tiers.backstop.user.default=10/1m")
			.run((context) -> assertThat(
					assertStartFailure(context, "ratelimit.tiers.backstop", "backstop", "premium").getDescription())
				.contains("reserved name"));
	}

	@Test
	void aGroupNameThatCannotBeATagStopsTheStart() {
		this.runner.withPropertyValues("ratelimit.groups.[a b].paths=/ab/**")
			.run((context) -> assertThat(
					assertStartFailure(context, "ratelimit.groups.a b", "a b", "premium").getDescription())
				.contains("letters, digits"));
	}

	@Test
	void aBackstopOfAnUnknownGroupStopsTheStart() {
		this.runner.withPropertyValues("ratelimit.ip.nope=10/1m")
			.run((context) -> assertThat(
					assertStartFailure(context, "ratelimit.ip.nope", "10/1m", "ratelimit.ip.default=50/1m, 500/1h")
						.getDescription())
				.contains("unknown endpoint group 'nope'"));
	}

	@Test
	void quotaOfAnUnknownDimensionStopsTheStart() {
		this.runner.withPropertyValues("ratelimit.tiers.premium.quota.team=1000/month")
			.run((context) -> assertStartFailure(context, "ratelimit.tiers.premium.quota.team", "1000/month",
					"ratelimit.tiers.premium.quota.org=1000000/month"));
	}

	@Test
	void unknownModeStopsTheStartNamingTheProperty() {
		this.runner
			.withPropertyValues("ratelimit.groups.export.paths=/export/**", "ratelimit.groups.export.mode=shadow")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("shadow");
				assertThat(context.getStartupFailure()).hasMessageContaining("ratelimit");
			});
	}

	@Test
	void bucket4jStrategyWithAQuotaStopsTheStartAskingForTheScript() {
		new WebApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class,
					RateLimitRedisAutoConfiguration.class, RateLimitAutoConfiguration.class))
			.withPropertyValues("spring.data.redis.url=" + RedisTestServer.url(),
					"ratelimit.storage.redis.strategy=bucket4j",
					"ratelimit.tiers.premium.org.default=100/1m, 5000/month")
			.run((context) -> assertStartFailure(context, "ratelimit.storage.redis.strategy", "bucket4j", "script"));
	}

	@Test
	void bucket4jStrategyWithAConcurrencyCapStopsTheStart() {
		new WebApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class,
					RateLimitRedisAutoConfiguration.class, RateLimitAutoConfiguration.class))
			.withPropertyValues("spring.data.redis.url=" + RedisTestServer.url(),
					"ratelimit.storage.redis.strategy=bucket4j", "ratelimit.groups.export.paths=/export/**",
					"ratelimit.groups.export.concurrency=2")
			.run((context) -> {
				FailureAnalysis analysis = assertStartFailure(context, "ratelimit.storage.redis.strategy", "bucket4j",
						"script");
				assertThat(analysis.getDescription()).contains("ratelimit.groups.export.concurrency");
			});
	}

}
