package io.github.ratelimit.test.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.sentinel.api.StatefulRedisSentinelConnection;
import io.lettuce.core.sentinel.api.sync.RedisSentinelCommands;

/**
 * A master, its replica and a Redis Sentinel that watches them, each a
 * {@code redis-server} from the {@code PATH} on a loopback port. One Sentinel with a
 * quorum of one may fail the master over on its own: a test's stand-in for a real
 * deployment's three. Close it to stop every process.
 */
public final class RedisSentinelProcess implements AutoCloseable {

	/**
	 * The name the Sentinel knows the master by
	 * ({@code spring.data.redis.sentinel.master}).
	 */
	public static final String MASTER_NAME = "ratelimit";

	/**
	 * How long the master may be silent before the Sentinel counts it as down and fails
	 * it over.
	 */
	private static final Duration DOWN_AFTER = Duration.ofSeconds(1);

	private static final Duration SETTLE_TIMEOUT = Duration.ofSeconds(20);

	private static RedisSentinelProcess shared;

	private final List<RedisServerProcess> processes = new ArrayList<>();

	private RedisServerProcess master;

	private RedisServerProcess replica;

	private RedisServerProcess sentinel;

	private RedisSentinelProcess() {
	}

	/**
	 * The Sentinel setup the tests of this JVM share, started on first use and stopped
	 * when the JVM exits. Tests isolate themselves with key prefixes; none may fail the
	 * shared one over.
	 * @return the running setup
	 */
	public static synchronized RedisSentinelProcess shared() {
		if (shared == null) {
			shared = start();
			Runtime.getRuntime().addShutdownHook(new Thread(shared::close, "redis-sentinel-shutdown"));
		}
		return shared;
	}

	/**
	 * Starts a master, a replica that has synchronised with it, and a Sentinel that
	 * monitors the master.
	 * @return the running setup
	 * @throws IllegalStateException when it does not come together
	 */
	public static RedisSentinelProcess start() {
		RedisSentinelProcess setup = new RedisSentinelProcess();
		try {
			setup.master = setup.add(RedisServerProcess.start());
			setup.replica = setup.add(RedisServerProcess
				.start(List.of("--replicaof", "127.0.0.1", Integer.toString(setup.master.port()))));
			setup.sentinel = setup.add(RedisServerProcess.startSentinel());
			setup.monitor();
			return setup;
		}
		catch (RuntimeException ex) {
			setup.close();
			throw ex;
		}
	}

	private RedisServerProcess add(RedisServerProcess process) {
		this.processes.add(process);
		return process;
	}

	private void monitor() {
		withSentinel((sentinel) -> {
			sentinel.monitor(MASTER_NAME, "127.0.0.1", this.master.port(), 1);
			sentinel.set(MASTER_NAME, "down-after-milliseconds", Long.toString(DOWN_AFTER.toMillis()));
			sentinel.set(MASTER_NAME, "failover-timeout", "5000");
			return null;
		});
		await("the replica has synchronised with the master",
				() -> with(this.replica, (replica) -> replica.info("replication").contains("master_link_status:up")));
		await("the Sentinel knows the replica",
				() -> withSentinel((sentinel) -> !sentinel.replicas(MASTER_NAME).isEmpty()));
	}

	/** The Sentinels as {@code spring.data.redis.sentinel.nodes} takes them. */
	public String nodes() {
		return "127.0.0.1:" + this.sentinel.port();
	}

	/** The URL of the current master, for a look at the data. */
	public String masterUrl() {
		return this.master.url();
	}

	/**
	 * Crashes the master ({@code SIGKILL}), once the replica has every write, and waits
	 * until the Sentinel has promoted the replica and names it as the master.
	 * @return how long that took
	 */
	public Duration failOver() {
		RedisServerProcess old = this.master;
		// what the master acknowledged has reached the replica: this failover loses no
		// write
		with(old, (master) -> master.waitForReplication(1, 5000));
		long crashed = System.nanoTime();
		old.crash();
		await("the Sentinel names the replica on port " + this.replica.port() + " as the master",
				() -> withSentinel((sentinel) -> {
					Map<String, String> master = sentinel.master(MASTER_NAME);
					return Integer.toString(this.replica.port()).equals(master.get("port"));
				}) && with(this.replica, (replica) -> replica.info("replication").contains("role:master")));
		this.master = this.replica;
		this.replica = old;
		return Duration.ofNanos(System.nanoTime() - crashed);
	}

	private static <T> T with(RedisServerProcess process, Function<RedisCommands<String, String>, T> work) {
		RedisClient client = RedisClient.create(RedisURI.create(process.url()));
		try (StatefulRedisConnection<String, String> connection = client.connect()) {
			return work.apply(connection.sync());
		}
		finally {
			client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
		}
	}

	private <T> T withSentinel(Function<RedisSentinelCommands<String, String>, T> work) {
		RedisClient client = RedisClient.create(RedisURI.create(this.sentinel.url()));
		try (StatefulRedisSentinelConnection<String, String> connection = client.connectSentinel()) {
			return work.apply(connection.sync());
		}
		finally {
			client.shutdown(Duration.ZERO, Duration.ofSeconds(2));
		}
	}

	private static void await(String what, BooleanSupplier condition) {
		long deadline = System.nanoTime() + SETTLE_TIMEOUT.toNanos();
		while (!condition.getAsBoolean()) {
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException("Redis Sentinel: not done within " + SETTLE_TIMEOUT + ": " + what);
			}
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
		}
	}

	@Override
	public void close() {
		for (int i = this.processes.size() - 1; i >= 0; i--) {
			this.processes.get(i).close();
		}
	}

}
