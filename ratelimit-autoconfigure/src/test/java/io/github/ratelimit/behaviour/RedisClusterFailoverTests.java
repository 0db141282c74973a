package io.github.ratelimit.behaviour;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.github.ratelimit.storage.redis.CircuitBreaker;
import io.github.ratelimit.storage.redis.RedisRateLimitStore;
import io.github.ratelimit.test.redis.RedisClusterProcess;
import io.github.ratelimit.test.redis.RedisServerProcess;
import io.github.ratelimit.test.redis.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * A Redis Cluster master crashes ({@code SIGKILL}) while clients keep calling, and its replica takes over.
 * The app keeps the defaults but for the failure mode under test: requests whose buckets the crashed master
 * held get the failure mode (admitted with {@code open}, 503 with {@code closed}), the others are decided as
 * usual, none gets a 500 or hangs; and once the replica is master, the starter's client finds it and
 * enforcement resumes on the promoted replica with what the master had counted.
 */
class RedisClusterFailoverTests {

	/** What any request may take while a master is lost: the timeout (50 ms) and a loaded machine's margin. */
	private static final Duration SLOWEST_ANSWER = Duration.ofSeconds(1);

	/** How soon after the replica took over decisions must be enforced again (DESIGN.md: within 5 s). */
	private static final Duration ENFORCED_AGAIN_WITHIN = Duration.ofSeconds(5);

	@BeforeAll
	static void redisServer() {
		assumeThat(RedisServerProcess.isAvailable()).as("redis-server on the PATH (apt-get install redis-server)")
			.isTrue();
	}

	@ParameterizedTest(name = "{0}, {1} strategy, failure mode {2}")
	@CsvSource({ "MVC, script, open", "WEBFLUX, script, closed", "WEBFLUX, bucket4j, open", "MVC, bucket4j, closed" })
	void aFailoverGetsTheFailureModeNeverA500AndEnforcementResumesOnThePromotedReplica(Stack stack, String strategy,
			String failureMode) throws Exception {
		String prefix = RedisTestServer.uniqueKeyPrefix("failover");
		Map<String, String> properties = new LinkedHashMap<>();
		try (RedisClusterProcess cluster = RedisClusterProcess.startWithReplicas()) {
			properties.put("ratelimit.storage.type", "redis");
			properties.put("spring.data.redis.cluster.nodes", cluster.nodes());
			properties.put("ratelimit.storage.key-prefix", prefix);
			properties.put("ratelimit.storage.redis.strategy", strategy);
			properties.put("ratelimit.storage.failure-mode", failureMode);
			try (BehaviourApp app = BehaviourApp.start(stack, properties).awaitStoreConnected()) {
				// a caller whose bucket the master about to crash holds: 5 an hour, one spent
				String victim = Traffic.nextAddress();
				Reply first = get(app, victim);
				assertThat(first.status()).as("%s", first).isEqualTo(200);
				assertThat(first.remaining()).isEqualTo(4);
				Set<String> keys = cluster.keys(prefix + "*");
				String victimKey = keys.stream().filter((key) -> !key.contains("backstop")).findFirst().orElseThrow();

				RedisRateLimitStore<?> store = app.context().getBean(RedisRateLimitStore.class);
				Traffic traffic = Traffic.start(app, () -> store.circuitBreaker().state() == CircuitBreaker.State.OPEN);
				Duration failover = cluster.failOverMasterOf(victimKey);
				long promoted = System.nanoTime();
				Reply enforced = awaitEnforced(app, victim, failureMode);
				Duration enforcedAfter = Duration.ofNanos(System.nanoTime() - promoted);
				traffic.stop();

				System.out.printf("Failover %s/%s/%s: cluster whole again after %d ms, enforced %d ms later; %s%n",
						stack, strategy, failureMode, failover.toMillis(), enforcedAfter.toMillis(), traffic);
				assertThat(traffic.serverErrors()).as("server errors").isEmpty();
				assertThat(traffic.statuses()).as("statuses during the failover")
					.containsOnlyKeys("open".equals(failureMode) ? Set.of(200) : Set.of(200, 503));
				assertThat(traffic.unlimited()).as("requests that got the failure mode").isPositive();
				assertThat(traffic.limited()).as("requests decided by Redis during the failover").isPositive();
				assertThat(traffic.slowest()).as("slowest answer during the failover").isLessThan(SLOWEST_ANSWER);
				assertThat(enforcedAfter).as("enforcement resumed after the replica took over")
					.isLessThan(ENFORCED_AGAIN_WITHIN);
				// the promoted replica had what the master counted: 5 an hour, one spent before, one now
				assertThat(enforced.remaining()).as("%s", enforced).isEqualTo(3);
				for (int i = 0; i < 3; i++) {
					assertThat(get(app, victim).status()).isEqualTo(200);
				}
				Reply refused = get(app, victim);
				assertThat(refused.status()).as("%s", refused).isEqualTo(429);
			}
		}
	}

	/** The victim's first answer decided by Redis again: with limit headers, not the failure mode. */
	private static Reply awaitEnforced(BehaviourApp app, String victim, String failureMode) {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
		while (true) {
			Reply reply = get(app, victim);
			if (reply.header("RateLimit").isPresent()) {
				return reply;
			}
			assertThat(reply.status()).as("%s", reply).isEqualTo("open".equals(failureMode) ? 200 : 503);
			assertThat(System.nanoTime()).as("enforced within 30 s").isLessThan(deadline);
			sleep(20);
		}
	}

	private static Reply get(BehaviourApp app, String address) {
		return Http.send(app.port(), "GET", "/api/hello", "X-Forwarded-For", address);
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

}
