package io.github.ratelimit.autoconfigure;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import io.github.ratelimit.core.Outcome;
import io.github.ratelimit.core.RateLimiter;
import io.github.ratelimit.policy.Classification;
import io.github.ratelimit.storage.RateLimitStore;
import io.github.ratelimit.storage.StoreUnavailableException;
import io.github.ratelimit.storage.memory.InMemoryRateLimitStore;
import io.github.ratelimit.storage.redis.RedisRateLimitStore;
import io.github.ratelimit.storage.redis.bucket4j.Bucket4jRedisRateLimitStore;
import io.github.ratelimit.storage.redis.script.RedisScriptRateLimitStore;
import io.github.ratelimit.test.TestRequest;
import io.github.ratelimit.test.redis.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;

class RateLimitRedisAutoConfigurationTests {

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class,
				RateLimitRedisAutoConfiguration.class, RateLimitAutoConfiguration.class));

	@Test
	void autoPicksRedisWithTheScriptStrategyWhenSpringDataRedisIsConfigured() {
		this.runner.withPropertyValues("spring.data.redis.url=" + RedisTestServer.url())
			.run((context) -> assertThat(context).getBean(RateLimitStore.class)
				.isInstanceOf(RedisScriptRateLimitStore.class));
	}

	@Test
	void bucket4jStrategyIsSelectable() {
		this.runner
			.withPropertyValues("spring.data.redis.url=" + RedisTestServer.url(),
					"ratelimit.storage.redis.strategy=bucket4j")
			.run((context) -> assertThat(context).getBean(RateLimitStore.class)
				.isInstanceOf(Bucket4jRedisRateLimitStore.class));
	}

	@Test
	void scriptStrategyNeedsNoBucket4jLettuce() {
		this.runner.withClassLoader(new FilteredClassLoader("io.github.bucket4j.redis"))
			.withPropertyValues("spring.data.redis.url=" + RedisTestServer.url())
			.run((context) -> assertThat(context).getBean(RateLimitStore.class)
				.isInstanceOf(RedisScriptRateLimitStore.class));
	}

	@Test
	void bucket4jStrategyWithoutBucket4jLettuceStopsTheStartNamingTheProperty() {
		this.runner.withClassLoader(new FilteredClassLoader("io.github.bucket4j.redis"))
			.withPropertyValues("spring.data.redis.url=" + RedisTestServer.url(),
					"ratelimit.storage.redis.strategy=bucket4j")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(new RateLimitConfigurationFailureAnalyzer().analyze(context.getStartupFailure())
					.getDescription()).contains("ratelimit.storage.redis.strategy").contains("bucket4j_jdk17-lettuce");
			});
	}

	@Test
	void redisDecidesSomeRequestsLocallyByDefaultAndEachCanBeSwitchedOff() {
		this.runner.withPropertyValues("spring.data.redis.url=" + RedisTestServer.url()).run((context) -> {
			RateLimiter limiter = context.getBean(RateLimiter.class);
			assertThat(limiter.localRefusals()).isNotNull();
			assertThat(limiter.hotKeyReserves()).isNotNull();
		});
		this.runner
			.withPropertyValues("spring.data.redis.url=" + RedisTestServer.url(),
					"ratelimit.storage.redis.local-refusals=false", "ratelimit.storage.redis.hot-keys.max-tokens=0")
			.run((context) -> {
				RateLimiter limiter = context.getBean(RateLimiter.class);
				assertThat(limiter.localRefusals()).isNull();
				assertThat(limiter.hotKeyReserves()).isNull();
			});
	}

	@Test
	void invalidHotKeysSettingsStopTheStartNamingTheProperty() {
		Map<String, String> invalid = Map.of("max-tokens", "1", "hold", "0s");
		invalid.forEach(
				(property, value) -> this.runner
					.withPropertyValues("spring.data.redis.url=" + RedisTestServer.url(),
							"ratelimit.storage.redis.hot-keys." + property + "=" + value)
					.run((context) -> {
						assertThat(context).hasFailed();
						assertThat(new RateLimitConfigurationFailureAnalyzer().analyze(context.getStartupFailure())
							.getDescription()).contains("ratelimit.storage.redis.hot-keys." + property);
					}));
	}

	@Test
	void autoKeepsBucketsInMemoryWhenSpringDataRedisIsOnlyOnTheClasspath() {
		// Boot would connect to localhost:6379 by default: nothing says the application
		// uses a Redis there
		this.runner.run((context) -> assertThat(context).getBean(RateLimitStore.class)
			.isInstanceOf(InMemoryRateLimitStore.class));
	}

	@Test
	void redisTypeUsesBootsRedisEvenWithoutProperties() {
		this.runner.withPropertyValues("ratelimit.storage.type=redis")
			.run((context) -> assertThat(context).getBean(RateLimitStore.class)
				.isInstanceOf(RedisScriptRateLimitStore.class));
	}

	@Test
	void autoPicksRedisWhenTheApplicationDefinesItsOwnConnectionFactory() {
		this.runner.withUserConfiguration(OwnConnectionFactory.class)
			.run((context) -> assertThat(context).getBean(RateLimitStore.class)
				.isInstanceOf(RedisScriptRateLimitStore.class));
	}

	@Test
	void memoryTypeKeepsBucketsInMemoryEvenWithRedis() {
		this.runner
			.withPropertyValues("spring.data.redis.url=" + RedisTestServer.url(), "ratelimit.storage.type=memory")
			.run((context) -> assertThat(context).getBean(RateLimitStore.class)
				.isInstanceOf(InMemoryRateLimitStore.class));
	}

	@Test
	void backsOffWithoutLettuceOnTheClasspath() {
		this.runner.withClassLoader(new FilteredClassLoader("io.lettuce.core"))
			.run((context) -> assertThat(context).getBean(RateLimitStore.class)
				.isInstanceOf(InMemoryRateLimitStore.class));
	}

	@Test
	void startsWhileRedisIsDownAndLimitsPerInstanceByDefault() {
		this.runner
			.withPropertyValues("spring.data.redis.url=redis://127.0.0.1:1",
					"ratelimit.tiers.anonymous.ip.default=1/1m")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				RateLimiter limiter = context.getBean(RateLimiter.class);
				// failure mode local: this instance's own bucket still holds the limit
				assertThat(limiter.decide(TestRequest.from("203.0.113.5"), Classification.of("default", 1)).outcome())
					.isEqualTo(Outcome.ALLOWED);
				assertThat(limiter.decide(TestRequest.from("203.0.113.5"), Classification.of("default", 1)).outcome())
					.isEqualTo(Outcome.REJECTED);
				assertThat(limiter.storeFailures().count(StoreUnavailableException.Kind.NOT_CONNECTED)
						+ limiter.storeFailures().count(StoreUnavailableException.Kind.CIRCUIT_OPEN))
					.isEqualTo(2);
			});
	}

	@Test
	void redisStoreDefaultsToOneSecondOfSilence() {
		this.runner.withPropertyValues("spring.data.redis.url=" + RedisTestServer.url())
			.run((context) -> assertThat(context.getBean(RedisRateLimitStore.class).timeout())
				.isEqualTo(Duration.ofSeconds(1))
				.isEqualTo(RedisRateLimitStore.DEFAULT_TIMEOUT));
	}

	@Test
	void closedFailureModeAnswersUnavailableWhileRedisIsDown() {
		this.runner
			.withPropertyValues("spring.data.redis.url=redis://127.0.0.1:1",
					"ratelimit.tiers.anonymous.ip.default=1/1m", "ratelimit.storage.failure-mode=closed")
			.run((context) -> assertThat(context.getBean(RateLimiter.class)
				.decide(TestRequest.from("203.0.113.5"), Classification.of("default", 1))
				.outcome()).isEqualTo(Outcome.UNAVAILABLE));
	}

	@Test
	void invalidTimeoutStopsTheStart() {
		this.runner.withPropertyValues("spring.data.redis.url=" + RedisTestServer.url(), "ratelimit.storage.timeout=0s")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(new RateLimitConfigurationFailureAnalyzer().analyze(context.getStartupFailure())
					.getDescription()).contains("ratelimit.storage.timeout");
			});
	}

	@Configuration(proxyBeanMethods = false)
	static class OwnConnectionFactory {

		@Bean
		LettuceConnectionFactory redisConnectionFactory() {
			return new LettuceConnectionFactory(
					LettuceConnectionFactory.createRedisConfiguration(RedisTestServer.url()));
		}

	}

}
