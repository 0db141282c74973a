package io.github.ratelimit.autoconfigure;

import java.time.Duration;

import io.lettuce.core.RedisClient;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.ConfigurationCondition;
import org.springframework.core.io.ResourceLoader;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.data.redis.connection.RedisStaticMasterReplicaConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.util.ClassUtils;

import io.github.ratelimit.control.ControlStore;
import io.github.ratelimit.policy.InvalidRateLimitConfigurationException;
import io.github.ratelimit.storage.RateLimitStore;
import io.github.ratelimit.storage.redis.RedisRateLimitStore;
import io.github.ratelimit.storage.redis.bucket4j.Bucket4jRedisRateLimitStore;
import io.github.ratelimit.storage.redis.connection.CircuitBreaker;
import io.github.ratelimit.storage.redis.control.RedisControlStore;
import io.github.ratelimit.storage.redis.script.RedisScriptRateLimitStore;

/**
 * Keeps buckets in Redis when Spring Data Redis configured a
 * {@link LettuceConnectionFactory} and {@code ratelimit.storage.type} is {@code auto} or
 * {@code redis}. The stores open their own connections in the background once the context
 * starts ({@link BackgroundWork}), so the application starts while Redis is down, through
 * a client of their own ({@link RateLimitRedisClient}) that reaches the Redis the factory
 * reaches; Boot's client and its options are left alone.
 */
@AutoConfiguration(afterName = "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration")
@ConditionalOnClass({ LettuceConnectionFactory.class, RedisClient.class })
@ConditionalOnBean(LettuceConnectionFactory.class)
@Conditional({ OnRateLimitEnabledCondition.class, RateLimitRedisAutoConfiguration.RedisStorageCondition.class })
@EnableConfigurationProperties(RateLimitProperties.class)
public final class RateLimitRedisAutoConfiguration {

	private static final int CONTROL_TIMEOUT_SECONDS = 2;

	private static final String BUCKET4J_LETTUCE = "io.github.bucket4j.redis.lettuce.Bucket4jLettuce";

	@Bean
	RateLimitRedisClient rateLimitRedisClient(LettuceConnectionFactory connectionFactory,
			ObjectProvider<RedisStaticMasterReplicaConfiguration> masterReplica,
			ObjectProvider<DataRedisConnectionDetails> connectionDetails) {
		return new RateLimitRedisClient(connectionFactory, RateLimitRedisClient.staticMasterReplica(connectionFactory,
				masterReplica.getIfUnique(), connectionDetails.getIfUnique()));
	}

	@Bean
	@ConditionalOnMissingBean(RateLimitStore.class)
	RedisRateLimitStore<?> rateLimitStore(RateLimitRedisClient connector, RateLimitProperties properties,
			ResourceLoader resourceLoader) {
		RateLimitProperties.Storage storage = properties.getStorage();
		Duration timeout = storage.getTimeout();
		if (timeout == null || timeout.isNegative() || timeout.isZero()) {
			throw new InvalidRateLimitConfigurationException("ratelimit.storage.timeout", timeout, "must be positive",
					"1s");
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
		CircuitBreaker breaker = new CircuitBreaker(redis.getFailureThreshold(), openDuration);
		RedisRateLimitStore<?> store = switch (redis.getStrategy()) {
			case SCRIPT -> new RedisScriptRateLimitStore(connector, timeout, breaker, leaseTime(redis));
			case BUCKET4J -> {
				if (!ClassUtils.isPresent(BUCKET4J_LETTUCE, resourceLoader.getClassLoader())) {
					throw new InvalidRateLimitConfigurationException("ratelimit.storage.redis.strategy", "bucket4j",
							"needs com.bucket4j:bucket4j_jdk17-lettuce on the classpath", "script");
				}
				String needsScript = PolicyMapper.needsScript(properties);
				if (needsScript != null) {
					throw new InvalidRateLimitConfigurationException("ratelimit.storage.redis.strategy", "bucket4j",
							"the bucket4j strategy decides token buckets only, but " + needsScript
									+ " needs the script strategy",
							"script");
				}
				yield new Bucket4jRedisRateLimitStore(connector, timeout, breaker);
			}
		};
		return store;
	}

	/**
	 * Connects a Redis rate-limit store (this configuration's or the application's own)
	 * when the context starts, before the web server takes requests, and closes its
	 * connection when the context stops, after the web server stopped.
	 */
	@Bean
	BackgroundWork rateLimitStoreConnection(RateLimitStore store) {
		if (store instanceof RedisRateLimitStore<?> redis) {
			return new BackgroundWork(redis::start, redis::stop);
		}
		return new BackgroundWork(() -> {
		}, () -> {
		});
	}

	/**
	 * Overrides, access rules and bans in the same Redis, so every instance applies the
	 * same ones. Operator reads and writes wait at most {@value #CONTROL_TIMEOUT_SECONDS}
	 * s for Redis; the request path never waits for this store.
	 */
	@Bean
	@ConditionalOnMissingBean(ControlStore.class)
	RedisControlStore rateLimitControlStore(RateLimitRedisClient connector, RateLimitProperties properties) {
		return new RedisControlStore(connector, properties.getStorage().getKeyPrefix(),
				Duration.ofSeconds(CONTROL_TIMEOUT_SECONDS), RuntimeControlMapper.maxActiveBans(properties.getBans()));
	}

	private static Duration leaseTime(RateLimitProperties.Redis redis) {
		Duration leaseTime = redis.getLeaseTime();
		if (leaseTime == null || leaseTime.compareTo(Duration.ofSeconds(1)) < 0) {
			throw new InvalidRateLimitConfigurationException("ratelimit.storage.redis.lease-time", leaseTime,
					"must be at least 1s (leases are renewed every third of it)", "30s");
		}
		return leaseTime;
	}

	/**
	 * Matches when {@code ratelimit.storage.type} is {@code redis}, or {@code auto} and
	 * the application configured Redis itself: a {@code spring.data.redis.*} property, a
	 * connection factory or connection details of its own (Testcontainers' service
	 * connections included). Spring Data Redis on the classpath for another reason must
	 * not move the buckets to a Redis on localhost that may not exist, where the failure
	 * mode would switch limiting off.
	 */
	static class RedisStorageCondition extends SpringBootCondition implements ConfigurationCondition {

		private static final String BOOT_REDIS_PACKAGE = "org.springframework.boot.data.redis.autoconfigure.";

		@Override
		public ConfigurationPhase getConfigurationPhase() {
			return ConfigurationPhase.REGISTER_BEAN;
		}

		@Override
		public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
			String type = context.getEnvironment().getProperty("ratelimit.storage.type", "auto").trim();
			if ("memory".equalsIgnoreCase(type)) {
				return ConditionOutcome.noMatch("ratelimit.storage.type is memory");
			}
			if ("redis".equalsIgnoreCase(type)) {
				return ConditionOutcome.match("ratelimit.storage.type is redis");
			}
			if (Binder.get(context.getEnvironment())
				.bind("spring.data.redis", Bindable.mapOf(String.class, String.class))
				.isBound()) {
				return ConditionOutcome.match("ratelimit.storage.type is auto and spring.data.redis is configured");
			}
			ConfigurableListableBeanFactory beanFactory = context.getBeanFactory();
			if (beanFactory != null && (ownBean(beanFactory, LettuceConnectionFactory.class)
					|| ownBean(beanFactory, DataRedisConnectionDetails.class))) {
				return ConditionOutcome.match("ratelimit.storage.type is auto and the application configures Redis");
			}
			return ConditionOutcome.noMatch("ratelimit.storage.type is auto and Redis is not configured "
					+ "(no spring.data.redis property, connection factory or connection details of the application)");
		}

		/**
		 * Whether a bean of the type is defined by the application rather than by Boot's
		 * defaults.
		 */
		private static boolean ownBean(ConfigurableListableBeanFactory beanFactory, Class<?> type) {
			for (String name : beanFactory.getBeanNamesForType(type, true, false)) {
				if (!definedByBoot(beanFactory, name)) {
					return true;
				}
			}
			return false;
		}

		private static boolean definedByBoot(ConfigurableListableBeanFactory beanFactory, String name) {
			if (!beanFactory.containsBeanDefinition(name)) {
				return false;
			}
			BeanDefinition definition = beanFactory.getBeanDefinition(name);
			String className = definition.getBeanClassName();
			String factoryBean = definition.getFactoryBeanName();
			if (className == null && factoryBean != null && beanFactory.containsBeanDefinition(factoryBean)) {
				className = beanFactory.getBeanDefinition(factoryBean).getBeanClassName();
			}
			return className != null && className.startsWith(BOOT_REDIS_PACKAGE);
		}

	}

}
