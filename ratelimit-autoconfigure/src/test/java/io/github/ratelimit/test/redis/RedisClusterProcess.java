package io.github.ratelimit.test.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.IntStream;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;

/**
 * A Redis Cluster of three masters, each a {@code redis-server} from the {@code PATH} in cluster mode on a
 * loopback port, their slots assigned and joined with {@code CLUSTER ADDSLOTS} and {@code CLUSTER MEET}
 * (no {@code redis-cli} needed). Close it to stop every node.
 */
public final class RedisClusterProcess implements AutoCloseable {

	private static final int SLOTS = 16384;

	private static final Duration FORMATION_TIMEOUT = Duration.ofSeconds(20);

	private static RedisClusterProcess shared;

	private final List<RedisServerProcess> nodes = new ArrayList<>();

	private RedisClusterProcess() {
	}

	/**
	 * The cluster the tests of this JVM share, started on first use and stopped when the JVM exits. Tests
	 * isolate themselves with key prefixes, as on the shared standalone server.
	 * @return the running cluster
	 */
	public static synchronized RedisClusterProcess shared() {
		if (shared == null) {
			shared = start();
			Runtime.getRuntime().addShutdownHook(new Thread(shared::close, "redis-cluster-shutdown"));
		}
		return shared;
	}

	/**
	 * Starts three nodes and waits until the cluster is formed ({@code cluster_state:ok} on every node).
	 * @return the running cluster
	 * @throws IllegalStateException when it cannot be formed
	 */
	public static RedisClusterProcess start() {
		RedisClusterProcess cluster = new RedisClusterProcess();
		try {
			for (int i = 0; i < 3; i++) {
				cluster.nodes.add(RedisServerProcess.start(List.of("--cluster-enabled", "yes", "--cluster-config-file",
						"nodes.conf", "--cluster-node-timeout", "2000")));
			}
			cluster.form();
			return cluster;
		}
		catch (RuntimeException ex) {
			cluster.close();
			throw ex;
		}
	}

	private void form() {
		List<RedisClient> clients = new ArrayList<>();
		List<StatefulRedisConnection<String, String>> connections = new ArrayList<>();
		try {
			for (RedisServerProcess node : this.nodes) {
				RedisClient client = RedisClient.create(RedisURI.create(node.url()));
				clients.add(client);
				connections.add(client.connect());
			}
			int perNode = SLOTS / this.nodes.size();
			for (int i = 0; i < this.nodes.size(); i++) {
				int from = i * perNode;
				int to = (i == this.nodes.size() - 1) ? SLOTS : from + perNode;
				connections.get(i).sync().clusterAddSlots(IntStream.range(from, to).toArray());
			}
			RedisCommands<String, String> first = connections.get(0).sync();
			for (int i = 1; i < this.nodes.size(); i++) {
				first.clusterMeet("127.0.0.1", this.nodes.get(i).port());
			}
			long deadline = System.nanoTime() + FORMATION_TIMEOUT.toNanos();
			for (StatefulRedisConnection<String, String> connection : connections) {
				while (!formed(connection.sync().clusterInfo())) {
					if (System.nanoTime() > deadline) {
						throw new IllegalStateException("The Redis Cluster did not form within " + FORMATION_TIMEOUT
								+ ": " + connection.sync().clusterInfo());
					}
					LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
				}
			}
		}
		finally {
			connections.forEach(StatefulRedisConnection::close);
			clients.forEach(RedisClient::shutdown);
		}
	}

	private boolean formed(String info) {
		return info.contains("cluster_state:ok") && info.contains("cluster_known_nodes:" + this.nodes.size())
				&& info.contains("cluster_slots_ok:" + SLOTS);
	}

	/** The URIs of the nodes, for a {@code RedisClusterClient}. */
	public List<RedisURI> uris() {
		return this.nodes.stream().map((node) -> RedisURI.create(node.url())).toList();
	}

	@Override
	public void close() {
		this.nodes.forEach(RedisServerProcess::close);
	}

}
