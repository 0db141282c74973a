package io.github.ratelimit.autoconfigure;

import java.time.Duration;

import io.lettuce.core.RedisClient;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.io.ResourceLoader;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.util.ClassUtils;

import io.github.ratelimit.policy.InvalidRateLimitConfigurationException;
import io.github.ratelimit.storage.RateLimitStore;
import io.github.ratelimit.storage.redis.Bucket4jRedisRateLimitStore;
import io.github.ratelimit.storage.redis.CircuitBreaker;
import io.github.ratelimit.storage.redis.RedisConnector;
import io.github.ratelimit.storage.redis.RedisRateLimitStore;
import io.github.ratelimit.storage.redis.RedisScriptRateLimitStore;

/**
 * Keeps buckets in Redis when Spring Data Redis configured a {@link LettuceConnectionFactory} and
 * {@code ratelimit.storage.type} is {@code auto} or {@code redis}. The store opens its own connection
 * from the factory's native client, lazily and in the background, so the application starts while Redis
 * is down; Boot's client and its options are left alone.
 */
@AutoConfiguration(afterName = "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration")
@ConditionalOnClass({ LettuceConnectionFactory.class, RedisClient.class })
@ConditionalOnBean(LettuceConnectionFactory.class)
@Conditional({ OnRateLimitEnabledCondition.class, RateLimitRedisAutoConfiguration.RedisStorageCondition.class })
@EnableConfigurationProperties(RateLimitProperties.class)
public final class RateLimitRedisAutoConfiguration {

	private static final String BUCKET4J_LETTUCE = "io.github.bucket4j.redis.lettuce.Bucket4jLettuce";

	@Bean
	@ConditionalOnMissingBean(RateLimitStore.class)
	RedisRateLimitStore<?> rateLimitStore(LettuceConnectionFactory connectionFactory,
			RateLimitProperties properties, ResourceLoader resourceLoader) {
		RateLimitProperties.Storage storage = properties.getStorage();
		Duration timeout = storage.getTimeout();
		if (timeout == null || timeout.isNegative() || timeout.isZero()) {
			throw new InvalidRateLimitConfigurationException("ratelimit.storage.timeout", timeout,
					"must be positive", "50ms");
		}
		RateLimitProperties.Redis redis = storage.getRedis();
		if (redis.getFailureThreshold() < 1) {
			throw new InvalidRateLimitConfigurationException("ratelimit.storage.redis.failure-threshold",
					redis.getFailureThreshold(), "must be at least 1", "5");
		}
		Duration openDuration = redis.getOpenDuration();
		if (openDuration == null || openDuration.isNegative() || openDuration.isZero()) {
			throw new InvalidRateLimitConfigurationException("ratelimit.storage.redis.open-duration", openDuration,
					"must be positive", "1s");
		}
		// the native client is asked for on the connecting thread: the factory may not be started yet
		RedisConnector connector = RedisConnector.of(connectionFactory::getRequiredNativeClient);
		CircuitBreaker breaker = new CircuitBreaker(redis.getFailureThreshold(), openDuration);
		RedisRateLimitStore<?> store = switch (redis.getStrategy()) {
			case SCRIPT -> new RedisScriptRateLimitStore(connector, timeout, breaker);
			case BUCKET4J -> {
				if (!ClassUtils.isPresent(BUCKET4J_LETTUCE, resourceLoader.getClassLoader())) {
					throw new InvalidRateLimitConfigurationException("ratelimit.storage.redis.strategy", "bucket4j",
							"needs com.bucket4j:bucket4j_jdk17-lettuce on the classpath", "script");
				}
				yield new Bucket4jRedisRateLimitStore(connector, timeout, breaker);
			}
		};
		store.start();
		return store;
	}

	/** Matches unless {@code ratelimit.storage.type} is {@code memory}. */
	static class RedisStorageCondition extends SpringBootCondition {

		@Override
		public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
			String type = context.getEnvironment().getProperty("ratelimit.storage.type", "auto");
			if ("memory".equalsIgnoreCase(type.trim())) {
				return ConditionOutcome.noMatch("ratelimit.storage.type is memory");
			}
			return ConditionOutcome.match("ratelimit.storage.type is " + type);
		}

	}

}
