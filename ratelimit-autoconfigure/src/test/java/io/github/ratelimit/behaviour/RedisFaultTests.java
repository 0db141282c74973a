package io.github.ratelimit.behaviour;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.IntStream;

import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulRedisConnection;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import tools.jackson.databind.JsonNode;

import io.github.ratelimit.core.FailureMode;
import io.github.ratelimit.storage.redis.RedisRateLimitStore;
import io.github.ratelimit.storage.redis.connection.CircuitBreaker;
import io.github.ratelimit.test.redis.FakeRedisServer;
import io.github.ratelimit.test.redis.RedisServerProcess;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * Over HTTP, with the defaults but for the failure mode under test: the app's Redis is
 * stopped mid-run and restarted on the same port, paused ({@code CLIENT PAUSE}), or full
 * ({@code maxmemory} with {@code noeviction}), while clients keep calling. Requests get
 * the configured failure mode (open: admitted without limits; closed: 503; local:
 * per-instance limits), never a 500, within the documented bounds (a paused Redis: about
 * {@code storage.timeout}, 1 s; stopped or full: at once); once the circuit breaker is
 * open none but its probes waits for Redis; the failure is loud (a WARN naming the cause,
 * and the health component {@code DEGRADED}); and enforcement by Redis resumes within 5 s
 * of Redis answering again. A server that answers garbage or nothing at all gets the
 * failure mode the same way.
 */
@ExtendWith(OutputCaptureExtension.class)
class RedisFaultTests {

	/** The breaker open, a request waits for nothing: a loaded machine's margin. */
	private static final Duration SLOWEST_ANSWER_WHILE_OPEN = Duration.ofMillis(500);

	/**
	 * Redis silent: a request waits for the default timeout (1 s) at most, plus a loaded
	 * machine's margin.
	 */
	private static final Duration SLOWEST_ANSWER = Duration.ofMillis(2500);

	/**
	 * Redis stopped or refusing: a request waits for nothing, the breaker's probes
	 * included.
	 */
	private static final Duration SLOWEST_ANSWER_AT_ONCE = Duration.ofSeconds(1);

	/**
	 * Answers slower than {@link #SLOWEST_ANSWER_WHILE_OPEN} allowed while the breaker is
	 * open: its probes (one a second) may wait for a silent Redis during a fault.
	 */
	private static final long PROBES = 6;

	private static final Duration ENFORCED_AGAIN_WITHIN = Duration.ofSeconds(5);

	private static final Duration PAUSE = Duration.ofSeconds(3);

	@BeforeAll
	static void redisServer() {
		assumeThat(RedisServerProcess.isAvailable()).as("redis-server on the PATH (apt-get install redis-server)")
			.isTrue();
	}

	@ParameterizedTest(name = "{0}: Redis {1}, failure mode {2}")
	@CsvSource({ "MVC, STOPPED, OPEN", "WEBFLUX, STOPPED, CLOSED", "MVC, STOPPED, LOCAL", "WEBFLUX, PAUSED, OPEN",
			"MVC, PAUSED, CLOSED", "WEBFLUX, PAUSED, LOCAL", "MVC, FULL, OPEN", "WEBFLUX, FULL, CLOSED",
			"MVC, FULL, LOCAL" })
	void requestsGetTheFailureModeNeverA500AndEnforcementResumesWhenRedisAnswersAgain(Stack stack, Fault fault,
			FailureMode failureMode, CapturedOutput output) throws Exception {
		try (RedisServerProcess redis = RedisServerProcess.start()) {
			Map<String, String> properties = new LinkedHashMap<>();
			properties.put("ratelimit.storage.type", "redis");
			properties.put("spring.data.redis.url", redis.url());
			properties.put("ratelimit.storage.failure-mode", failureMode.name().toLowerCase());
			properties.put("management.endpoint.health.show-details", "always");
			try (BehaviourApp app = BehaviourApp.start(stack, properties).awaitStoreConnected()) {
				RedisRateLimitStore<?> store = app.context().getBean(RedisRateLimitStore.class);
				MeterRegistry meters = app.context().getBean(MeterRegistry.class);
				assertThat(Traffic.hello(app, Traffic.nextAddress()).header("RateLimit")).as("decided by Redis")
					.isPresent();

				Traffic traffic = Traffic.start(app, () -> store.circuitBreaker().state() == CircuitBreaker.State.OPEN);
				double errorsBefore = storeErrors(meters);
				long faultEnds = fault.begin(redis);
				List<Reply> oneCaller = callSixTimes(app);
				JsonNode health = rateLimitHealth(app);
				fault.awaitEnd(redis, faultEnds);
				long back = System.nanoTime();
				traffic.stop();
				Duration enforcedAfter = awaitDecidedByRedis(app, meters, back);

				System.out.printf("Redis %s, %s/%s: enforced %d ms after Redis answered again; %s%n", fault, stack,
						failureMode, enforcedAfter.toMillis(), traffic);
				assertThat(traffic.serverErrors()).as("server errors").isEmpty();
				assertThat(storeErrors(meters) - errorsBefore).as("decisions that got the failure mode").isPositive();
				// only these (the closed mode may answer every request 503 when Redis
				// goes before the first one)
				assertThat(traffic.statuses().keySet())
					.isSubsetOf((failureMode == FailureMode.CLOSED) ? Set.of(200, 503) : Set.of(200));
				assertThat(traffic.whileOpen()).as("requests while the breaker was open").isPositive();
				assertThat(traffic.whileOpenSlowerThan(SLOWEST_ANSWER_WHILE_OPEN))
					.as("answers slower than %d ms while the breaker was open: its probes only",
							SLOWEST_ANSWER_WHILE_OPEN.toMillis())
					.isLessThanOrEqualTo(PROBES);
				assertThat(traffic.slowest()).as("slowest answer")
					.isLessThan(fault.silent ? SLOWEST_ANSWER : SLOWEST_ANSWER_AT_ONCE);
				assertThat(enforcedAfter).as("enforcement resumed after Redis answered again")
					.isLessThan(ENFORCED_AGAIN_WITHIN);
				assertConfiguredAnswers(failureMode, oneCaller);
				assertLoud(failureMode, fault.causes, health, output);
			}
		}
	}

	@ParameterizedTest(name = "{0}: a server that answers {1}, failure mode {2}")
	@CsvSource({ "MVC, GARBAGE, OPEN", "WEBFLUX, GARBAGE, CLOSED", "MVC, GARBAGE, LOCAL", "WEBFLUX, HANG, OPEN",
			"MVC, HANG, CLOSED", "WEBFLUX, HANG, LOCAL" })
	void aServerThatAnswersGarbageOrNothingGetsTheFailureModeNeverA500(Stack stack, FakeRedisServer.Behaviour answers,
			FailureMode failureMode) throws Exception {
		try (FakeRedisServer server = FakeRedisServer.start(answers)) {
			Map<String, String> properties = new LinkedHashMap<>();
			properties.put("ratelimit.storage.type", "redis");
			properties.put("spring.data.redis.url", server.url());
			properties.put("ratelimit.storage.failure-mode", failureMode.name().toLowerCase());
			try (BehaviourApp app = BehaviourApp.start(stack, properties)) {
				RedisRateLimitStore<?> store = app.context().getBean(RedisRateLimitStore.class);
				Traffic traffic = Traffic.start(app, () -> store.circuitBreaker().state() == CircuitBreaker.State.OPEN);
				List<Reply> oneCaller = callSixTimes(app);
				LockSupport.parkNanos(TimeUnit.SECONDS.toNanos(1));
				traffic.stop();

				System.out.printf("A server that answers %s, %s/%s: %s%n", answers, stack, failureMode, traffic);
				assertThat(traffic.serverErrors()).as("server errors").isEmpty();
				assertThat(traffic.statuses())
					.containsOnlyKeys((failureMode == FailureMode.CLOSED) ? Set.of(503) : Set.of(200));
				assertThat(traffic.slowest()).as("slowest answer").isLessThan(SLOWEST_ANSWER);
				assertThat(traffic.whileOpenSlowerThan(SLOWEST_ANSWER_WHILE_OPEN))
					.as("answers slower than %d ms while the breaker was open: its probes only",
							SLOWEST_ANSWER_WHILE_OPEN.toMillis())
					.isLessThanOrEqualTo(PROBES);
				assertConfiguredAnswers(failureMode, oneCaller);
			}
		}
	}

	/** The health component {@code rateLimit}. */
	private static JsonNode rateLimitHealth(BehaviourApp app) {
		return Http.send(app.port(), "GET", "/actuator/health").json().get("components").get("rateLimit");
	}

	/**
	 * A WARN that names the cause and what the failure mode did, and health DEGRADED with
	 * the cause.
	 */
	private static void assertLoud(FailureMode failureMode, List<String> causes, JsonNode health,
			CapturedOutput output) {
		assertThat(output.getOut()
			.lines()
			.filter((line) -> line.contains("WARN") && line.contains("Rate-limit store failed")
					&& causes.stream().anyMatch(line::contains)
					&& line.contains("failure mode " + failureMode.name().toLowerCase()))
			.count()).as("WARN lines naming one of %s", causes).isPositive();
		assertThat(health.get("status").asString()).isEqualTo("DEGRADED");
		assertThat(health.get("details").get("lastFailure").get("message").asString())
			.containsAnyOf(causes.toArray(String[]::new));
		assertThat(health.get("details").get("failureModeDecisions").asLong()).isPositive();
	}

	/** One caller's six requests during the fault, where five an hour are allowed. */
	private static List<Reply> callSixTimes(BehaviourApp app) {
		String caller = Traffic.nextAddress();
		return IntStream.range(0, 6).mapToObj((i) -> Traffic.hello(app, caller)).toList();
	}

	private static void assertConfiguredAnswers(FailureMode failureMode, List<Reply> replies) {
		switch (failureMode) {
			case OPEN -> assertThat(replies).as("admitted without limits").allSatisfy((reply) -> {
				assertThat(reply.status()).isEqualTo(200);
				assertThat(reply.header("RateLimit")).isEmpty();
			});
			case CLOSED -> assertThat(replies).as("refused: the limiter is unavailable")
				.allSatisfy((reply) -> assertThat(Traffic.isUnavailable(reply)).as("%s", reply).isTrue());
			case LOCAL -> {
				// per-instance buckets hold the same limits
				assertThat(replies.subList(0, 5)).allSatisfy((reply) -> assertThat(reply.status()).isEqualTo(200));
				assertThat(replies.get(4).remaining()).isZero();
				assertThat(replies.get(5).status()).as("%s", replies.get(5)).isEqualTo(429);
			}
		}
	}

	/**
	 * Waits for the first request decided by Redis again (the store's error count stands
	 * still across it), and answers how long after {@code back} it came.
	 */
	private static Duration awaitDecidedByRedis(BehaviourApp app, MeterRegistry meters, long back) {
		long deadline = back + TimeUnit.SECONDS.toNanos(30);
		while (System.nanoTime() < deadline) {
			double errors = storeErrors(meters);
			Reply reply = Traffic.hello(app, Traffic.nextAddress());
			assertThat(reply.status()).as("%s", reply).isNotEqualTo(500);
			if (storeErrors(meters) == errors && reply.header("RateLimit").isPresent()) {
				return Duration.ofNanos(System.nanoTime() - back);
			}
			Traffic.pause();
		}
		throw new AssertionError("Redis decided nothing within 30 s of answering again");
	}

	private static double storeErrors(MeterRegistry meters) {
		return meters.find("ratelimit.store.errors")
			.functionCounters()
			.stream()
			.mapToDouble(FunctionCounter::count)
			.sum();
	}

	enum Fault {

		/**
		 * The server stops (its data gone) and, a moment later, starts again on the same
		 * port.
		 */
		STOPPED(false, "Not connected") {

			@Override
			long begin(RedisServerProcess redis) {
				redis.stop();
				return System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
			}

			@Override
			void awaitEnd(RedisServerProcess redis, long ends) {
				sleepUntil(ends);
				redis.restart();
			}

		},

		/**
		 * The server stops answering every client for {@link #PAUSE}
		 * ({@code CLIENT PAUSE ... ALL}).
		 */
		PAUSED(true, "answered nothing for 1000 ms") {

			@Override
			long begin(RedisServerProcess redis) {
				RedisClient client = RedisClient.create(redis.url());
				try (StatefulRedisConnection<String, String> connection = client.connect()) {
					connection.sync().clientPause(PAUSE.toMillis());
				}
				finally {
					client.shutdown();
				}
				return System.nanoTime() + PAUSE.toNanos();
			}

			@Override
			void awaitEnd(RedisServerProcess redis, long ends) {
				sleepUntil(ends);
			}

		},

		/**
		 * The server is full for {@link #PAUSE}: {@code maxmemory} below what it holds,
		 * evicting nothing, so it refuses every write with an {@code OOM} error.
		 */
		FULL(false, "OOM command not allowed") {

			@Override
			long begin(RedisServerProcess redis) {
				admin(redis, (commands) -> {
					commands.set("filler", "x".repeat(4 * 1024 * 1024));
					commands.configSet("maxmemory-policy", "noeviction");
					commands.configSet("maxmemory", "1mb");
				});
				return System.nanoTime() + PAUSE.toNanos();
			}

			@Override
			void awaitEnd(RedisServerProcess redis, long ends) {
				sleepUntil(ends);
				admin(redis, (commands) -> {
					commands.configSet("maxmemory", "0");
					commands.del("filler");
				});
			}

		};

		/**
		 * Whether Redis is silent (requests wait for the timeout) rather than refusing at
		 * once.
		 */
		final boolean silent;

		/** What the WARN line and the health details say: one of these. */
		final List<String> causes;

		Fault(boolean silent, String... causes) {
			this.silent = silent;
			this.causes = List.of(causes);
		}

		/**
		 * Starts the fault; answers when it is due to end ({@link System#nanoTime()}).
		 */
		abstract long begin(RedisServerProcess redis);

		/** Waits until the fault has ended and Redis answers again. */
		abstract void awaitEnd(RedisServerProcess redis, long ends);

		private static void admin(RedisServerProcess redis,
				java.util.function.Consumer<io.lettuce.core.api.sync.RedisCommands<String, String>> commands) {
			RedisClient client = RedisClient.create(redis.url());
			try (StatefulRedisConnection<String, String> connection = client.connect()) {
				commands.accept(connection.sync());
			}
			finally {
				client.shutdown();
			}
		}

		private static void sleepUntil(long nanoTime) {
			while (System.nanoTime() - nanoTime < 0) {
				LockSupport.parkNanos(nanoTime - System.nanoTime());
			}
		}

	}

}
