package io.github.ratelimit.test.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.IntStream;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;

/**
 * A Redis Cluster of three masters, with or without a replica each, every node a
 * {@code redis-server} from the {@code PATH} in cluster mode on a loopback port, formed
 * with {@code CLUSTER ADDSLOTS}, {@code CLUSTER MEET} and {@code CLUSTER REPLICATE} (no
 * {@code redis-cli} needed). Close it to stop every node.
 */
public final class RedisClusterProcess implements AutoCloseable {

	private static final int SLOTS = 16384;

	private static final int MASTERS = 3;

	/**
	 * How long a node may be silent before the others count it as failed and its replica
	 * takes over.
	 */
	private static final Duration NODE_TIMEOUT = Duration.ofSeconds(2);

	private static final Duration FORMATION_TIMEOUT = Duration.ofSeconds(20);

	private static RedisClusterProcess shared;

	private final List<RedisServerProcess> nodes = new ArrayList<>();

	private RedisClusterProcess() {
	}

	/**
	 * The cluster the tests of this JVM share, started on first use and stopped when the
	 * JVM exits. Tests isolate themselves with key prefixes, as on the shared standalone
	 * server.
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
	 * Starts three masters and waits until the cluster is formed
	 * ({@code cluster_state:ok} on every node).
	 * @return the running cluster
	 * @throws IllegalStateException when it cannot be formed
	 */
	public static RedisClusterProcess start() {
		return start(0);
	}

	/**
	 * Starts three masters with a replica each, and waits until the cluster is formed and
	 * every replica has synchronised with its master: a master that fails is replaced by
	 * its replica.
	 * @return the running cluster
	 * @throws IllegalStateException when it cannot be formed
	 */
	public static RedisClusterProcess startWithReplicas() {
		return start(1);
	}

	private static RedisClusterProcess start(int replicasPerMaster) {
		RedisClusterProcess cluster = new RedisClusterProcess();
		try {
			for (int i = 0; i < MASTERS * (1 + replicasPerMaster); i++) {
				cluster.nodes.add(RedisServerProcess.start(List.of("--cluster-enabled", "yes", "--cluster-config-file",
						"nodes.conf", "--cluster-node-timeout", Long.toString(NODE_TIMEOUT.toMillis()))));
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
		withConnections(this.nodes, (connections) -> {
			int perMaster = SLOTS / MASTERS;
			for (int i = 0; i < MASTERS; i++) {
				int from = i * perMaster;
				int to = (i == MASTERS - 1) ? SLOTS : from + perMaster;
				connections.get(i).clusterAddSlots(IntStream.range(from, to).toArray());
			}
			RedisCommands<String, String> first = connections.get(0);
			for (int i = 1; i < this.nodes.size(); i++) {
				first.clusterMeet("127.0.0.1", this.nodes.get(i).port());
			}
			await("every node knows every other", connections,
					(node) -> node.clusterInfo().contains("cluster_known_nodes:" + this.nodes.size()));
			for (int i = MASTERS; i < this.nodes.size(); i++) {
				connections.get(i).clusterReplicate(connections.get(i % MASTERS).clusterMyId());
			}
			await("the cluster is formed", connections, (node) -> formed(node.clusterInfo()));
			await("every replica has synchronised", connections.subList(MASTERS, connections.size()),
					(replica) -> replica.info("replication").contains("master_link_status:up"));
			return null;
		});
	}

	/**
	 * Crashes the master that serves a key ({@code SIGKILL}), once its replica has every
	 * write, and waits until the replica has taken over and the cluster is whole again.
	 * @param key a key the failed master served
	 * @return how long the cluster was not whole, from the crash until every surviving
	 * node says {@code cluster_state:ok} with a new master for the key's slot
	 */
	public Duration failOverMasterOf(String key) {
		List<RedisServerProcess> survivors = new ArrayList<>(this.nodes);
		RedisServerProcess master = withConnections(this.nodes.subList(0, 1), (connections) -> {
			int slot = connections.get(0).clusterKeyslot(key).intValue();
			String port = masterOf(connections.get(0).clusterNodes(), slot);
			return this.nodes.stream()
				.filter((node) -> port.equals(Integer.toString(node.port())))
				.findFirst()
				.orElseThrow();
		});
		survivors.remove(master);
		// what the master acknowledged has reached its replica: this failover loses no
		// write (Redis's
		// replication is asynchronous, and a real one may lose the last ones)
		withConnections(List.of(master), (connections) -> connections.get(0).waitForReplication(1, 5000));
		long crashed = System.nanoTime();
		master.crash();
		withConnections(survivors, (connections) -> {
			await("a replica has taken over from the crashed master on port " + master.port(), connections,
					// the crashed node stays known, as failed
					(node) -> formed(node.clusterInfo(), this.nodes.size())
							&& !masterOf(node.clusterNodes(), node.clusterKeyslot(key).intValue())
								.equals(Integer.toString(master.port())));
			return null;
		});
		return Duration.ofNanos(System.nanoTime() - crashed);
	}

	/**
	 * The keys that match a pattern, on every running node.
	 * @param pattern a {@code KEYS} pattern, such as {@code prefix*}
	 * @return the keys, each once
	 */
	public Set<String> keys(String pattern) {
		List<RedisServerProcess> running = this.nodes.stream().filter(RedisServerProcess::isRunning).toList();
		return withConnections(running, (connections) -> {
			Set<String> keys = new TreeSet<>();
			connections.forEach((node) -> keys.addAll(node.keys(pattern)));
			return keys;
		});
	}

	/** The port of the master serving a slot, from {@code CLUSTER NODES}. */
	private static String masterOf(String clusterNodes, int slot) {
		for (String line : clusterNodes.split("\n")) {
			String[] fields = line.trim().split(" ");
			if (fields.length < 9 || !fields[2].contains("master") || fields[2].contains("fail")) {
				continue;
			}
			for (int i = 8; i < fields.length; i++) {
				String[] range = fields[i].split("-");
				if (range[0].startsWith("[")) {
					continue;
				}
				int from = Integer.parseInt(range[0]);
				int to = (range.length > 1) ? Integer.parseInt(range[1]) : from;
				if (slot >= from && slot <= to) {
					return fields[1].substring(fields[1].lastIndexOf(':') + 1, fields[1].indexOf('@'));
				}
			}
		}
		return "none";
	}

	private static <T> T withConnections(List<RedisServerProcess> nodes,
			Function<List<RedisCommands<String, String>>, T> work) {
		List<RedisClient> clients = new ArrayList<>();
		List<StatefulRedisConnection<String, String>> connections = new ArrayList<>();
		try {
			for (RedisServerProcess node : nodes) {
				RedisClient client = RedisClient.create(RedisURI.create(node.url()));
				clients.add(client);
				connections.add(client.connect());
			}
			return work.apply(connections.stream().map(StatefulRedisConnection::sync).toList());
		}
		finally {
			connections.forEach(StatefulRedisConnection::close);
			clients.forEach(RedisClient::shutdown);
		}
	}

	private static void await(String what, List<RedisCommands<String, String>> nodes,
			Predicate<RedisCommands<String, String>> condition) {
		long deadline = System.nanoTime() + FORMATION_TIMEOUT.toNanos();
		for (RedisCommands<String, String> node : nodes) {
			while (!condition.test(node)) {
				if (System.nanoTime() > deadline) {
					throw new IllegalStateException("Redis Cluster: not done within " + FORMATION_TIMEOUT + ": " + what
							+ "\n" + node.clusterInfo() + "\n" + node.clusterNodes());
				}
				LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
			}
		}
	}

	private boolean formed(String info) {
		return formed(info, this.nodes.size());
	}

	private static boolean formed(String info, int knownNodes) {
		return info.contains("cluster_state:ok") && info.contains("cluster_known_nodes:" + knownNodes)
				&& info.contains("cluster_slots_ok:" + SLOTS);
	}

	/**
	 * The nodes as {@code spring.data.redis.cluster.nodes} takes them:
	 * {@code host:port,host:port,...}.
	 */
	public String nodes() {
		return String.join(",", this.nodes.stream().map((node) -> "127.0.0.1:" + node.port()).toList());
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
