package io.github.ratelimit.behaviour;

import java.util.LinkedHashMap;
import java.util.Map;

import io.github.ratelimit.test.redis.RedisClusterProcess;
import io.github.ratelimit.test.redis.RedisServerProcess;
import io.github.ratelimit.test.redis.RedisTestServer;

import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * Where the behavioural apps keep their buckets.
 */
enum Storage {

	/** Buckets in memory; Spring Data Redis points at a port nothing listens on, so nothing reaches a Redis. */
	MEMORY {

		@Override
		Map<String, String> properties(String keyPrefix) {
			Map<String, String> properties = new LinkedHashMap<>();
			properties.put("ratelimit.storage.type", "memory");
			properties.put("spring.data.redis.url", "redis://127.0.0.1:" + RedisServerProcess.freePort());
			return properties;
		}

	},

	/**
	 * Buckets in the tests' real Redis ({@link RedisTestServer}), under a key prefix of their own, with the
	 * default strategy (the script).
	 */
	REDIS {

		@Override
		Map<String, String> properties(String keyPrefix) {
			Map<String, String> properties = new LinkedHashMap<>();
			properties.put("ratelimit.storage.type", "redis");
			properties.put("spring.data.redis.url", RedisTestServer.url());
			properties.put("ratelimit.storage.key-prefix", RedisTestServer.uniqueKeyPrefix(keyPrefix));
			return properties;
		}

	},

	/** Buckets in the tests' real Redis with the {@code bucket4j} strategy. */
	REDIS_BUCKET4J {

		@Override
		Map<String, String> properties(String keyPrefix) {
			Map<String, String> properties = REDIS.properties(keyPrefix);
			properties.put("ratelimit.storage.redis.strategy", "bucket4j");
			return properties;
		}

	},

	/**
	 * Buckets in a real Redis Cluster of three masters ({@link RedisClusterProcess#shared()}), configured as a
	 * user configures one ({@code spring.data.redis.cluster.nodes}), with the default strategy (the script).
	 * Skipped, saying why, where {@code redis-server} is missing.
	 */
	REDIS_CLUSTER {

		@Override
		Map<String, String> properties(String keyPrefix) {
			assumeThat(RedisServerProcess.isAvailable()).as("redis-server on the PATH (apt-get install redis-server)")
				.isTrue();
			Map<String, String> properties = new LinkedHashMap<>();
			properties.put("ratelimit.storage.type", "redis");
			properties.put("spring.data.redis.cluster.nodes", RedisClusterProcess.shared().nodes());
			properties.put("ratelimit.storage.key-prefix", RedisTestServer.uniqueKeyPrefix(keyPrefix));
			return properties;
		}

		@Override
		Map<String, String> unreachable(String keyPrefix) {
			Map<String, String> properties = properties(keyPrefix);
			properties.put("spring.data.redis.cluster.nodes", "127.0.0.1:" + RedisServerProcess.freePort());
			return properties;
		}

	},

	/** Buckets in the Redis Cluster with the {@code bucket4j} strategy. */
	REDIS_CLUSTER_BUCKET4J {

		@Override
		Map<String, String> properties(String keyPrefix) {
			Map<String, String> properties = REDIS_CLUSTER.properties(keyPrefix);
			properties.put("ratelimit.storage.redis.strategy", "bucket4j");
			return properties;
		}

		@Override
		Map<String, String> unreachable(String keyPrefix) {
			Map<String, String> properties = REDIS_CLUSTER.unreachable(keyPrefix);
			properties.put("ratelimit.storage.redis.strategy", "bucket4j");
			return properties;
		}

	};

	/**
	 * The properties of an app on this storage.
	 * @param keyPrefix a readable part of the key prefix (Redis only), such as the test class's name
	 * @return the properties
	 */
	abstract Map<String, String> properties(String keyPrefix);

	/**
	 * The properties of an app on this storage whose Redis never answers: nothing listens where it points.
	 * @param keyPrefix as for {@link #properties(String)}
	 * @return the properties
	 */
	Map<String, String> unreachable(String keyPrefix) {
		Map<String, String> properties = properties(keyPrefix);
		properties.put("spring.data.redis.url", "redis://127.0.0.1:" + RedisServerProcess.freePort());
		return properties;
	}

}
