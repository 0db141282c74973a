package io.github.ratelimit.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

import io.lettuce.core.RedisClient;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.runner.IterationType;

import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.Limit;
import io.github.ratelimit.policy.LimitParser;
import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.policy.PolicyScope;
import io.github.ratelimit.storage.LimitCheck;
import io.github.ratelimit.storage.StoreDecision;
import io.github.ratelimit.storage.StoreKeys;
import io.github.ratelimit.storage.StoreUnavailableException;
import io.github.ratelimit.storage.redis.RedisRateLimitStore;
import io.github.ratelimit.storage.redis.bucket4j.Bucket4jRedisRateLimitStore;
import io.github.ratelimit.storage.redis.connection.CircuitBreaker;
import io.github.ratelimit.storage.redis.connection.RedisConnector;
import io.github.ratelimit.storage.redis.script.RedisScriptRateLimitStore;

/**
 * One blocking Redis decision ({@code RateLimitStore.decide}) of each strategy, on
 * loopback, the way the limiter makes it on a request thread: the store's own Lettuce
 * connection, shared by every thread.
 * <ul>
 * <li>{@code keys10k_*}: one check, on a random key among {@value #KEYS} (a spread of
 * callers).</li>
 * <li>{@code request3_*}: three checks, as a verified caller's request: user (one of
 * {@value #KEYS}), org (one of {@value #ORGS}, so hotter) and client address (one per
 * user).</li>
 * <li>{@code hotKey_*}: one check, every decision on the same key (one client
 * hammering).</li>
 * <li>{@code hotKeyRefused_*}: the same, on a key whose one token is gone: every decision
 * refused.</li>
 * </ul>
 * Limits of the admitted variants are {@value #ADMITTED_LIMIT}: every decision is
 * admitted and takes a token (checked at set-up). {@code _t1} runs one thread,
 * {@code _t16} sixteen. Redis: the one of {@code RATELIMIT_BENCH_REDIS_URL} when set,
 * else a {@code redis-server} of its own on a free loopback port (see
 * {@link BenchRedis}); every trial writes under keys of its own.
 * <p>
 * A decision that fails ({@link StoreUnavailableException}: Redis silent for longer than
 * the store's timeout, or the circuit breaker open) is counted, not thrown: the limiter
 * would have applied its failure mode, and the time it took is part of the figures. After
 * every iteration that had failures a line
 * {@code [RedisDecisionBenchmark] ... decisions failed} is printed; a measurement
 * iteration in which more than {@value #MAX_FAILED_PERCENT}% failed fails the benchmark
 * (its figures would measure the breaker, not Redis).
 */
@State(Scope.Benchmark)
@BenchmarkMode({ Mode.Throughput, Mode.SampleTime })
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
@Fork(1)
public class RedisDecisionBenchmark {

	/** The limit of the admitted variants (as the HTTP benchmark's admitted path). */
	public static final String ADMITTED_LIMIT = "1000000000/1m";

	/** The limit of the refused variant: one token an hour, taken at set-up. */
	public static final String REFUSED_LIMIT = "1/1h";

	static final int KEYS = 10_000;

	static final int ORGS = 100;

	static final int MAX_FAILED_PERCENT = 1;

	private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(15);

	/**
	 * The Redis strategy: {@code script} (the default, one Lua script per decision) or
	 * {@code bucket4j}.
	 */
	@Param({ "script", "bucket4j" })
	public String strategy;

	private BenchRedis redis;

	private RedisClient client;

	private RedisRateLimitStore<?> store;

	private List<LimitCheck>[] oneCheck;

	private List<LimitCheck>[] threeChecks;

	private List<LimitCheck> hotKey;

	private List<LimitCheck> refusedKey;

	private final LongAdder decided = new LongAdder();

	private final LongAdder failed = new LongAdder();

	@Setup(Level.Trial)
	@SuppressWarnings("unchecked")
	public void setUp() throws InterruptedException {
		this.redis = BenchRedis.startOrConnect();
		this.client = RedisClient.create(this.redis.url());
		RedisConnector connector = RedisConnector.of(this.client);
		this.store = switch (this.strategy) {
			case "script" ->
				new RedisScriptRateLimitStore(connector, RedisRateLimitStore.DEFAULT_TIMEOUT, new CircuitBreaker());
			case "bucket4j" ->
				new Bucket4jRedisRateLimitStore(connector, RedisRateLimitStore.DEFAULT_TIMEOUT, new CircuitBreaker());
			default -> throw new IllegalArgumentException("strategy must be script or bucket4j, was " + this.strategy);
		};
		this.store.start();
		long deadline = System.nanoTime() + CONNECT_TIMEOUT.toNanos();
		while (!this.store.isConnected()) {
			if (System.nanoTime() > deadline) {
				throw new IllegalStateException("The " + this.strategy + " store did not connect to " + this.redis.url()
						+ " within " + CONNECT_TIMEOUT.toSeconds() + " s");
			}
			Thread.sleep(20);
		}

		// keys of this trial only, so that runs on a shared server never meet earlier
		// state
		StoreKeys keys = new StoreKeys("rl-bench:" + Long.toHexString(System.nanoTime()) + ":");
		Limit admitted = LimitParser.parse(ADMITTED_LIMIT);
		Policy user = new Policy("bench", Dimension.USER, "default", admitted);
		Policy org = new Policy("bench", Dimension.ORG, "default", admitted);
		Policy ip = new Policy(PolicyScope.BACKSTOP, Dimension.IP, "default", admitted);
		Policy refused = new Policy("bench", Dimension.USER, "refused", LimitParser.parse(REFUSED_LIMIT));
		this.oneCheck = new List[KEYS];
		this.threeChecks = new List[KEYS];
		for (int i = 0; i < KEYS; i++) {
			LimitCheck userCheck = LimitCheck.enforced(user, keys.key(user, "user-" + i), 1);
			this.oneCheck[i] = List.of(userCheck);
			this.threeChecks[i] = List.of(userCheck, LimitCheck.enforced(org, keys.key(org, "org-" + (i % ORGS)), 1),
					LimitCheck.enforced(ip, keys.key(ip, "10.1." + (i / 256) + "." + (i % 256)), 1));
		}
		this.hotKey = List.of(LimitCheck.enforced(user, keys.key(user, "hot"), 1));
		this.refusedKey = List.of(LimitCheck.enforced(refused, keys.key(refused, "hot"), 1));

		// what each variant measures is what it says
		expect(this.oneCheck[0], true, "keys10k");
		expect(this.threeChecks[0], true, "request3");
		expect(this.hotKey, true, "hotKey");
		expect(this.refusedKey, true, "hotKeyRefused (its one token)");
		expect(this.refusedKey, false, "hotKeyRefused");
	}

	@TearDown(Level.Iteration)
	public void countFailures(IterationParams iteration) {
		long failures = this.failed.sumThenReset();
		long decisions = this.decided.sumThenReset() + failures;
		if (failures == 0) {
			return;
		}
		boolean measured = iteration.getType() == IterationType.MEASUREMENT;
		String line = String.format(
				"[RedisDecisionBenchmark] %s, %s iteration: %d of %d decisions failed "
						+ "(StoreUnavailableException; the limiter would have applied its failure mode)",
				this.strategy, measured ? "measurement" : "warm-up", failures, decisions);
		// on a line of its own: JMH has printed "Iteration n: " already
		System.out.println(System.lineSeparator() + line);
		if (measured && failures * 100 > decisions * MAX_FAILED_PERCENT) {
			throw new IllegalStateException(line + ": more than " + MAX_FAILED_PERCENT + "%, no figures for this run");
		}
	}

	@TearDown(Level.Trial)
	public void tearDown() {
		List<RuntimeException> failures = new ArrayList<>();
		run(failures, () -> {
			if (this.store != null) {
				this.store.close();
			}
		});
		run(failures, () -> {
			if (this.client != null) {
				this.client.shutdown(0, 2, TimeUnit.SECONDS);
			}
		});
		run(failures, () -> {
			if (this.redis != null) {
				this.redis.close();
			}
		});
		if (!failures.isEmpty()) {
			throw failures.get(0);
		}
	}

	@Benchmark
	@Threads(1)
	public StoreDecision keys10k_t1() {
		return randomKey();
	}

	@Benchmark
	@Threads(16)
	public StoreDecision keys10k_t16() {
		return randomKey();
	}

	@Benchmark
	@Threads(1)
	public StoreDecision request3_t1() {
		return randomRequest();
	}

	@Benchmark
	@Threads(16)
	public StoreDecision request3_t16() {
		return randomRequest();
	}

	@Benchmark
	@Threads(1)
	public StoreDecision hotKey_t1() {
		return decide(this.hotKey);
	}

	@Benchmark
	@Threads(16)
	public StoreDecision hotKey_t16() {
		return decide(this.hotKey);
	}

	@Benchmark
	@Threads(1)
	public StoreDecision hotKeyRefused_t1() {
		return decide(this.refusedKey);
	}

	@Benchmark
	@Threads(16)
	public StoreDecision hotKeyRefused_t16() {
		return decide(this.refusedKey);
	}

	private StoreDecision randomKey() {
		return decide(this.oneCheck[ThreadLocalRandom.current().nextInt(KEYS)]);
	}

	private StoreDecision randomRequest() {
		return decide(this.threeChecks[ThreadLocalRandom.current().nextInt(KEYS)]);
	}

	private StoreDecision decide(List<LimitCheck> checks) {
		try {
			StoreDecision decision = this.store.decide(checks);
			this.decided.increment();
			return decision;
		}
		catch (StoreUnavailableException ex) {
			this.failed.increment();
			return null;
		}
	}

	private void expect(List<LimitCheck> checks, boolean admitted, String variant) throws InterruptedException {
		StoreDecision decision = null;
		for (int attempt = 1; decision == null; attempt++) {
			try {
				decision = this.store.decide(checks);
			}
			catch (StoreUnavailableException ex) {
				// a cold JVM on a busy machine: a first decision may miss the timeout
				if (attempt == 5) {
					throw ex;
				}
				Thread.sleep(200);
			}
		}
		if (decision.admitted() != admitted) {
			throw new IllegalStateException(variant + ": expected the " + this.strategy + " store to "
					+ (admitted ? "admit" : "refuse") + " " + checks + ", got " + decision);
		}
	}

	private static void run(List<RuntimeException> failures, Runnable step) {
		try {
			step.run();
		}
		catch (RuntimeException ex) {
			failures.add(ex);
		}
	}

}
