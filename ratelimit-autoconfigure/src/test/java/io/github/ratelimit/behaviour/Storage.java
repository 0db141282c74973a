package io.github.ratelimit.behaviour;

import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import io.github.ratelimit.test.redis.RedisClusterProcess;
import io.github.ratelimit.test.redis.RedisSentinelProcess;
import io.github.ratelimit.test.redis.RedisServerProcess;
import io.github.ratelimit.test.redis.RedisTestServer;

import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * Where the behavioural apps keep their buckets: in memory, or in a real Redis of some
 * topology with one of the two strategies, configured as a user configures it
 * ({@code spring.data.redis.*}), under a key prefix of the app's own.
 */
enum Storage {

	/**
	 * Buckets in memory; Spring Data Redis points at a port nothing listens on, so
	 * nothing reaches a Redis.
	 */
	MEMORY(null, null),

	/**
	 * The tests' standalone Redis ({@link RedisTestServer}), the default strategy (the
	 * script).
	 */
	REDIS(Topology.STANDALONE, null),

	REDIS_BUCKET4J(Topology.STANDALONE, "bucket4j"),

	/** A Redis Cluster of three masters ({@link RedisClusterProcess#shared()}). */
	REDIS_CLUSTER(Topology.CLUSTER, null),

	REDIS_CLUSTER_BUCKET4J(Topology.CLUSTER, "bucket4j"),

	/**
	 * A master with a replica, found through a Redis Sentinel
	 * ({@link RedisSentinelProcess#shared()}).
	 */
	REDIS_SENTINEL(Topology.SENTINEL, null),

	REDIS_SENTINEL_BUCKET4J(Topology.SENTINEL, "bucket4j");

	private final @Nullable Topology topology;

	private final @Nullable String strategy;

	Storage(@Nullable Topology topology, @Nullable String strategy) {
		this.topology = topology;
		this.strategy = strategy;
	}

	/**
	 * The properties of an app on this storage.
	 * @param keyPrefix a readable part of the key prefix (Redis only), such as the test
	 * class's name
	 * @return the properties
	 */
	Map<String, String> properties(String keyPrefix) {
		Map<String, String> properties = new LinkedHashMap<>();
		if (this.topology == null) {
			properties.put("ratelimit.storage.type", "memory");
			properties.put("spring.data.redis.url", "redis://127.0.0.1:" + RedisServerProcess.freePort());
			return properties;
		}
		properties.put("ratelimit.storage.type", "redis");
		properties.putAll(this.topology.connection());
		properties.put("ratelimit.storage.key-prefix", RedisTestServer.uniqueKeyPrefix(keyPrefix));
		if (this.strategy != null) {
			properties.put("ratelimit.storage.redis.strategy", this.strategy);
		}
		return properties;
	}

	/**
	 * The properties of an app on this storage whose Redis never answers: nothing listens
	 * where it points.
	 * @param keyPrefix as for {@link #properties(String)}
	 * @return the properties
	 */
	Map<String, String> unreachable(String keyPrefix) {
		Map<String, String> properties = properties(keyPrefix);
		if (this.topology != null) {
			properties.putAll(this.topology.unreachable());
		}
		return properties;
	}

	/** How the app reaches its Redis. */
	private enum Topology {

		STANDALONE {

			@Override
			Map<String, String> connection() {
				return Map.of("spring.data.redis.url", RedisTestServer.url());
			}

			@Override
			Map<String, String> unreachable() {
				return Map.of("spring.data.redis.url", "redis://127.0.0.1:" + RedisServerProcess.freePort());
			}

		},

		CLUSTER {

			@Override
			Map<String, String> connection() {
				requireRedisServer();
				return Map.of("spring.data.redis.cluster.nodes", RedisClusterProcess.shared().nodes());
			}

			@Override
			Map<String, String> unreachable() {
				return Map.of("spring.data.redis.cluster.nodes", "127.0.0.1:" + RedisServerProcess.freePort());
			}

		},

		SENTINEL {

			@Override
			Map<String, String> connection() {
				requireRedisServer();
				return Map.of("spring.data.redis.sentinel.master", RedisSentinelProcess.MASTER_NAME,
						"spring.data.redis.sentinel.nodes", RedisSentinelProcess.shared().nodes());
			}

			@Override
			Map<String, String> unreachable() {
				return Map.of("spring.data.redis.sentinel.nodes", "127.0.0.1:" + RedisServerProcess.freePort());
			}

		};

		abstract Map<String, String> connection();

		abstract Map<String, String> unreachable();

		/**
		 * Skips the test, saying why, where the test support cannot start these servers.
		 */
		private static void requireRedisServer() {
			assumeThat(RedisServerProcess.isAvailable()).as("redis-server on the PATH (apt-get install redis-server)")
				.isTrue();
		}

	}

}
