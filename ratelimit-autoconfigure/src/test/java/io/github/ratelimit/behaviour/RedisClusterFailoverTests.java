package io.github.ratelimit.behaviour;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

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

	private static final AtomicInteger addresses = new AtomicInteger();

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
				String victim = nextAddress();
				Reply first = get(app, victim);
				assertThat(first.status()).as("%s", first).isEqualTo(200);
				assertThat(first.remaining()).isEqualTo(4);
				Set<String> keys = cluster.keys(prefix + "*");
				String victimKey = keys.stream().filter((key) -> !key.contains("backstop")).findFirst().orElseThrow();

				Traffic traffic = Traffic.start(app);
				Duration failover = cluster.failOverMasterOf(victimKey);
				long promoted = System.nanoTime();
				Reply enforced = awaitEnforced(app, victim, failureMode);
				Duration enforcedAfter = Duration.ofNanos(System.nanoTime() - promoted);
				traffic.stop();

				System.out.printf("Failover %s/%s/%s: cluster whole again after %d ms, enforced %d ms later; %s%n",
						stack, strategy, failureMode, failover.toMillis(), enforcedAfter.toMillis(), traffic);
				assertThat(traffic.statuses).as("statuses during the failover")
					.containsOnlyKeys("open".equals(failureMode) ? Set.of(200) : Set.of(200, 503));
				assertThat(traffic.failureModeAnswers.get()).as("requests that got the failure mode").isPositive();
				assertThat(traffic.decided.get()).as("requests decided by Redis during the failover").isPositive();
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

	private static String nextAddress() {
		int n = addresses.incrementAndGet();
		return "198.19." + (n / 250) + "." + (n % 250 + 1);
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

	/**
	 * Clients calling from new addresses all the time, so that their buckets fall on every master, until
	 * stopped.
	 */
	private static final class Traffic {

		private static final int CLIENTS = 4;

		private final Map<Integer, Long> statuses = new ConcurrentHashMap<>();

		private final AtomicLong failureModeAnswers = new AtomicLong();

		private final AtomicLong decided = new AtomicLong();

		private final AtomicLong slowestNanos = new AtomicLong();

		private final ConcurrentLinkedQueue<String> oddities = new ConcurrentLinkedQueue<>();

		private final AtomicBoolean running = new AtomicBoolean(true);

		private final ExecutorService executor = Executors.newFixedThreadPool(CLIENTS);

		private final List<Future<?>> clients = new ArrayList<>();

		static Traffic start(BehaviourApp app) {
			Traffic traffic = new Traffic();
			for (int i = 0; i < CLIENTS; i++) {
				traffic.clients.add(traffic.executor.submit(() -> traffic.call(app)));
			}
			return traffic;
		}

		private void call(BehaviourApp app) {
			// bounded: the failover and the wait for enforcement end well within this
			long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
			while (this.running.get() && System.nanoTime() < deadline) {
				long start = System.nanoTime();
				Reply reply = get(app, nextAddress());
				this.slowestNanos.accumulateAndGet(System.nanoTime() - start, Math::max);
				this.statuses.merge(reply.status(), 1L, Long::sum);
				if (reply.header("RateLimit").isPresent()) {
					this.decided.incrementAndGet();
				}
				else if (reply.status() == 200 || (reply.status() == 503
						&& reply.body().contains("\"code\":\"rate_limiter_unavailable\""))) {
					this.failureModeAnswers.incrementAndGet();
				}
				else if (this.oddities.size() < 5) {
					this.oddities.add(reply.toString());
				}
			}
		}

		void stop() throws Exception {
			this.running.set(false);
			for (Future<?> client : this.clients) {
				client.get(30, TimeUnit.SECONDS);
			}
			this.executor.shutdown();
		}

		Duration slowest() {
			return Duration.ofNanos(this.slowestNanos.get());
		}

		@Override
		public String toString() {
			return "statuses " + this.statuses + ", failure mode " + this.failureModeAnswers + ", decided "
					+ this.decided + ", slowest " + slowest().toMillis() + " ms" + (this.oddities.isEmpty() ? ""
							: ", odd answers " + this.oddities);
		}

	}

}
