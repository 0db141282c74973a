package io.github.ratelimit.behaviour;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.github.ratelimit.storage.redis.RedisRateLimitStore;
import io.github.ratelimit.storage.redis.connection.CircuitBreaker;
import io.github.ratelimit.test.redis.RedisClusterProcess;
import io.github.ratelimit.test.redis.RedisSentinelProcess;
import io.github.ratelimit.test.redis.RedisServerProcess;
import io.github.ratelimit.test.redis.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * A Redis master crashes ({@code SIGKILL}) while clients keep calling, and its replica
 * takes over: in a Redis Cluster, or promoted by a Sentinel. The app keeps the defaults
 * but for the failure mode under test: requests whose buckets the crashed master held get
 * the failure mode (admitted with {@code open}, 503 with {@code closed}), the others are
 * decided as usual, none gets a 500 or hangs; and once the replica is master, the
 * starter's client finds it and enforcement resumes on the promoted replica with what the
 * master had counted.
 */
class RedisFailoverTests {

	/**
	 * What any request may take while a master is lost: a killed master's connection
	 * fails at once, a silent one after the timeout (1 s); and a loaded machine's margin.
	 */
	private static final Duration SLOWEST_ANSWER = Duration.ofMillis(2500);

	/**
	 * How soon after the replica took over decisions must be enforced again (DESIGN.md:
	 * within 5 s).
	 */
	private static final Duration ENFORCED_AGAIN_WITHIN = Duration.ofSeconds(5);

	@BeforeAll
	static void redisServer() {
		assumeThat(RedisServerProcess.isAvailable()).as("redis-server on the PATH (apt-get install redis-server)")
			.isTrue();
	}

	@ParameterizedTest(name = "{0}: {1}, {2} strategy, failure mode {3}")
	@CsvSource({ "CLUSTER, MVC, script, open", "CLUSTER, WEBFLUX, script, closed", "CLUSTER, WEBFLUX, bucket4j, open",
			"CLUSTER, MVC, bucket4j, closed", "SENTINEL, WEBFLUX, script, open", "SENTINEL, MVC, bucket4j, closed" })
	void aFailoverGetsTheFailureModeNeverA500AndEnforcementResumesOnThePromotedReplica(Topology topology, Stack stack,
			String strategy, String failureMode) throws Exception {
		String prefix = RedisTestServer.uniqueKeyPrefix("failover");
		try (Servers servers = topology.start()) {
			Map<String, String> properties = new LinkedHashMap<>(servers.properties());
			properties.put("ratelimit.storage.type", "redis");
			properties.put("ratelimit.storage.key-prefix", prefix);
			properties.put("ratelimit.storage.redis.strategy", strategy);
			properties.put("ratelimit.storage.failure-mode", failureMode);
			try (BehaviourApp app = BehaviourApp.start(stack, properties).awaitStoreConnected()) {
				// a caller whose bucket the master about to crash holds: 5 an hour, one
				// spent
				String victim = Traffic.nextAddress();
				Reply first = Traffic.hello(app, victim);
				assertThat(first.status()).as("%s", first).isEqualTo(200);
				assertThat(first.remaining()).isEqualTo(4);

				RedisRateLimitStore<?> store = app.context().getBean(RedisRateLimitStore.class);
				Traffic traffic = Traffic.start(app, () -> store.circuitBreaker().state() == CircuitBreaker.State.OPEN);
				Duration failover = servers.failOverMasterOfKeysUnder(prefix);
				long promoted = System.nanoTime();
				Reply enforced = awaitEnforced(app, victim, failureMode);
				Duration enforcedAfter = Duration.ofNanos(System.nanoTime() - promoted);
				traffic.stop();

				System.out.printf("Failover %s %s/%s/%s: replica in charge after %d ms, enforced %d ms later; %s%n",
						topology, stack, strategy, failureMode, failover.toMillis(), enforcedAfter.toMillis(), traffic);
				assertThat(traffic.serverErrors()).as("server errors").isEmpty();
				assertThat(traffic.statuses().keySet()).as("statuses during the failover")
					.isSubsetOf("open".equals(failureMode) ? Set.of(200) : Set.of(200, 503));
				assertThat(traffic.unlimited()).as("requests that got the failure mode").isPositive();
				assertThat(traffic.limited()).as("requests decided by Redis during the failover").isPositive();
				assertThat(traffic.slowest()).as("slowest answer during the failover").isLessThan(SLOWEST_ANSWER);
				assertThat(enforcedAfter).as("enforcement resumed after the replica took over")
					.isLessThan(ENFORCED_AGAIN_WITHIN);
				// the promoted replica had what the master counted: 5 an hour, one spent
				// before, one now
				assertThat(enforced.remaining()).as("%s", enforced).isEqualTo(3);
				for (int i = 0; i < 3; i++) {
					assertThat(Traffic.hello(app, victim).status()).isEqualTo(200);
				}
				Reply refused = Traffic.hello(app, victim);
				assertThat(refused.status()).as("%s", refused).isEqualTo(429);
			}
		}
	}

	/**
	 * The victim's first answer decided by Redis again: with limit headers, not the
	 * failure mode.
	 */
	private static Reply awaitEnforced(BehaviourApp app, String victim, String failureMode) {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
		while (true) {
			Reply reply = Traffic.hello(app, victim);
			if (reply.header("RateLimit").isPresent()) {
				return reply;
			}
			assertThat(reply.status()).as("%s", reply).isEqualTo("open".equals(failureMode) ? 200 : 503);
			assertThat(System.nanoTime()).as("enforced within 30 s").isLessThan(deadline);
			Traffic.pause();
		}
	}

	/** Where the app's Redis runs, with a replica for every master. */
	enum Topology {

		/** Three masters, a replica each: the master of the victim's bucket crashes. */
		CLUSTER {

			@Override
			Servers start() {
				RedisClusterProcess cluster = RedisClusterProcess.startWithReplicas();
				return new Servers(Map.of("spring.data.redis.cluster.nodes", cluster.nodes()), (prefix) -> {
					// the victim's own bucket, not the per-address backstop every caller
					// shares
					String victimKey = cluster.keys(prefix + "*")
						.stream()
						.filter((key) -> !key.contains("backstop"))
						.findFirst()
						.orElseThrow();
					return cluster.failOverMasterOf(victimKey);
				}, cluster);
			}

		},

		/**
		 * A master, its replica and a Sentinel: the master crashes, the Sentinel promotes
		 * the replica.
		 */
		SENTINEL {

			@Override
			Servers start() {
				RedisSentinelProcess sentinel = RedisSentinelProcess.start();
				return new Servers(
						Map.of("spring.data.redis.sentinel.master", RedisSentinelProcess.MASTER_NAME,
								"spring.data.redis.sentinel.nodes", sentinel.nodes()),
						(prefix) -> sentinel.failOver(), sentinel);
			}

		};

		abstract Servers start();

	}

	/**
	 * Running servers: the properties that point an app at them, and how to crash the
	 * master of the keys under a prefix and wait until its replica is in charge.
	 */
	record Servers(Map<String, String> properties, Function<String, Duration> failOverMasterOfKeysUnder,
			AutoCloseable processes) implements AutoCloseable {

		Duration failOverMasterOfKeysUnder(String prefix) {
			return this.failOverMasterOfKeysUnder.apply(prefix);
		}

		@Override
		public void close() throws Exception {
			this.processes.close();
		}

	}

}
