package io.github.ratelimit.autoconfigure;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointAutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

import io.github.ratelimit.actuate.RateLimitsEndpoint;
import io.github.ratelimit.control.AccessRule;
import io.github.ratelimit.control.ControlStore;
import io.github.ratelimit.control.RuntimeControl;
import io.github.ratelimit.metrics.RateLimitMetrics;
import io.github.ratelimit.storage.memory.InMemoryControlStore;
import io.github.ratelimit.storage.redis.control.RedisControlStore;
import io.github.ratelimit.test.redis.RedisTestServer;

import static io.github.ratelimit.autoconfigure.StartFailures.assertBindFailure;
import static io.github.ratelimit.autoconfigure.StartFailures.assertStartFailure;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runtime control's beans: the control and its store (memory, or Redis beside a Redis
 * rate-limit store), the {@code ratelimits} endpoint only when exposed, and start
 * failures that name a bad access or ban property.
 */
class RateLimitRuntimeControlAutoConfigurationTests {

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(EndpointAutoConfiguration.class, WebEndpointAutoConfiguration.class,
				RateLimitAutoConfiguration.class, RateLimitEndpointAutoConfiguration.class))
		.withPropertyValues("ratelimit.tiers.anonymous.ip.default=10/1m");

	@Test
	void runtimeControlIsInMemoryAndTheEndpointIsNotExposedByDefault() {
		this.runner.run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean(ControlStore.class)).isInstanceOf(InMemoryControlStore.class);
			assertThat(context).hasSingleBean(RuntimeControl.class);
			assertThat(context).doesNotHaveBean(RateLimitsEndpoint.class);
		});
	}

	@Test
	void theEndpointExistsOnceExposed() {
		this.runner.withPropertyValues("management.endpoints.web.exposure.include=ratelimits")
			.run((context) -> assertThat(context).hasSingleBean(RateLimitsEndpoint.class));
	}

	@Test
	void configuredAccessRulesAreInForce() {
		this.runner
			.withPropertyValues("ratelimit.access.allow[0]=203.0.113.0/24",
					"ratelimit.access.deny[0]=key:" + "a".repeat(64), "ratelimit.tiers.partner.ip.default=100/1m",
					"ratelimit.access.allow[1]=user:bot as partner")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context.getBean(RuntimeControl.class).rules()).extracting(AccessRule::spec)
					.containsExactly("key:t-" + "a".repeat(32), "ip:203.0.113.0/24", "user:bot as partner");
			});
	}

	@Test
	void aBadAccessRuleStopsTheStartNamingTheProperty() {
		this.runner.withPropertyValues("ratelimit.access.deny[0]=10.0.0.1/8")
			.run((context) -> assertBindFailure(context, "ratelimit.access.deny[0]", "10.0.0.1/8", "169.254.0.0/16"));
		this.runner.withPropertyValues("ratelimit.access.allow[0]=user:bot as gold")
			.run((context) -> assertStartFailure(context, "ratelimit.access.allow[0]", "user:bot as gold",
					"203.0.113.0/24"));
		this.runner.withPropertyValues("ratelimit.access.deny[0]=key:my-secret-key")
			.run((context) -> assertThat(
					assertBindFailure(context, "ratelimit.access.deny[0]", "key:my-secret-key", "169.254.0.0/16")
						.getDescription())
				.contains("never the key itself"));
	}

	@Test
	void badBanSettingsStopTheStartNamingTheProperty() {
		this.runner.withPropertyValues("ratelimit.bans.refusals=-1")
			.run((context) -> assertStartFailure(context, "ratelimit.bans.refusals", "-1", "100"));
		this.runner.withPropertyValues("ratelimit.groups.login.paths=/login", "ratelimit.groups.login.bans.window=0s")
			.run((context) -> assertStartFailure(context, "ratelimit.groups.login.bans.window", "PT0S", "1m"));
		this.runner
			.withPropertyValues("ratelimit.bans.refusals=5", "ratelimit.bans.duration=2h",
					"ratelimit.bans.max-duration=1h")
			.run((context) -> assertStartFailure(context, "ratelimit.bans.max-duration", "PT1H", "24h"));
		this.runner.withPropertyValues("ratelimit.control.refresh-interval=1ms")
			.run((context) -> assertStartFailure(context, "ratelimit.control.refresh-interval", "PT0.001S", "1s"));
		this.runner.withPropertyValues("ratelimit.bans.max-active=0")
			.run((context) -> assertStartFailure(context, "ratelimit.bans.max-active", "0", "100000"));
	}

	@Test
	void theMostBansInForceBoundTheStore() {
		this.runner.run((context) -> assertThat(context.getBean(ControlStore.class).maxActiveBans())
			.isEqualTo(ControlStore.DEFAULT_MAX_ACTIVE_BANS));
		this.runner.withPropertyValues("ratelimit.bans.max-active=5000")
			.run((context) -> assertThat(context.getBean(ControlStore.class).maxActiveBans()).isEqualTo(5000));
	}

	@Test
	void metersAreBoundToTheApplicationsRegistryWhenThereIsOne() {
		this.runner.withConfiguration(AutoConfigurations.of(RateLimitMetricsAutoConfiguration.class))
			.run((context) -> assertThat(context).doesNotHaveBean(RateLimitMetrics.class));
		this.runner
			.withConfiguration(
					AutoConfigurations.of(MetricsAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class,
							SimpleMetricsExportAutoConfiguration.class, RateLimitMetricsAutoConfiguration.class))
			.run((context) -> {
				assertThat(context).hasSingleBean(RateLimitMetrics.class);
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				assertThat(registry.find(RateLimitMetrics.WAITING).gauge()).isNotNull();
				assertThat(registry.find(RateLimitMetrics.BANS).functionCounter()).isNotNull();
			});
	}

	@Test
	void runtimeControlLivesInRedisBesideARedisStore() {
		new WebApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class,
					RateLimitRedisAutoConfiguration.class, RateLimitAutoConfiguration.class))
			.withPropertyValues("spring.data.redis.url=" + RedisTestServer.url(),
					"ratelimit.storage.key-prefix=" + RedisTestServer.uniqueKeyPrefix("control"),
					"ratelimit.bans.max-active=5000")
			.run((context) -> {
				assertThat(context.getBean(ControlStore.class)).isInstanceOf(RedisControlStore.class);
				assertThat(context.getBean(ControlStore.class).maxActiveBans()).isEqualTo(5000);
			});
	}

}
