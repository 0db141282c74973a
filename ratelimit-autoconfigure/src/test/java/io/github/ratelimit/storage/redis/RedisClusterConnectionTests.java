package io.github.ratelimit.storage.redis;

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.github.ratelimit.storage.redis.bucket4j.Bucket4jRedisRateLimitStore;
import io.github.ratelimit.storage.redis.connection.CircuitBreaker;
import io.github.ratelimit.storage.redis.connection.RedisConnector;
import io.github.ratelimit.storage.redis.script.RedisScriptRateLimitStore;
import io.github.ratelimit.test.redis.RedisClusterProcess;
import io.github.ratelimit.test.redis.RedisServerProcess;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

/**
 * A store on a Redis Cluster counts as connected only once it holds a connection to every
 * master, so that no first decision on a node's keys waits for a connect (which Lettuce
 * would open on first use).
 */
class RedisClusterConnectionTests {

	@ParameterizedTest
	@ValueSource(strings = { "script", "bucket4j" })
	void aStoreIsConnectedToEveryMasterBeforeItsFirstDecision(String strategy) {
		assumeThat(RedisServerProcess.isAvailable()).as("redis-server on the PATH").isTrue();
		RedisClusterProcess cluster = RedisClusterProcess.shared();
		String name = "rl-eager-" + UUID.randomUUID().toString().substring(0, 8);
		List<RedisURI> seeds = cluster.uris().stream().peek((uri) -> uri.setClientName(name)).toList();
		RedisClusterClient client = RedisClusterClient.create(seeds);
		RedisConnector connector = RedisConnector.of(client);
		try (RedisRateLimitStore<?> store = "script".equals(strategy)
				? new RedisScriptRateLimitStore(connector, RedisRateLimitStore.DEFAULT_TIMEOUT, new CircuitBreaker())
				: new Bucket4jRedisRateLimitStore(connector, RedisRateLimitStore.DEFAULT_TIMEOUT,
						new CircuitBreaker())) {
			store.start();
			await().atMost(Duration.ofSeconds(10)).until(store::isConnected);
			for (RedisURI master : cluster.uris()) {
				assertThat(clientList(master)).as("clients of %s", master).contains("name=" + name);
			}
		}
		finally {
			client.shutdown();
		}
	}

	private static String clientList(RedisURI node) {
		RedisClient client = RedisClient.create(RedisURI.create(node.getHost(), node.getPort()));
		try (StatefulRedisConnection<String, String> connection = client.connect()) {
			return connection.sync().clientList();
		}
		finally {
			client.shutdown();
		}
	}

}
