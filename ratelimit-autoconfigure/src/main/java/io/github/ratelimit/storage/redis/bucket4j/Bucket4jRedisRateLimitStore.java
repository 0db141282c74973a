package io.github.ratelimit.storage.redis.bucket4j;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.TimeMeter;
import io.github.bucket4j.distributed.AsyncBucketProxy;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.distributed.proxy.AsyncProxyManager;
import io.github.bucket4j.redis.lettuce.Bucket4jLettuce;
import io.github.bucket4j.redis.lettuce.Bucket4jLettuce.LettuceBasedProxyManagerBuilder;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisAdvancedClusterAsyncCommands;

import io.github.ratelimit.storage.LimitCheck;
import io.github.ratelimit.storage.bucket4j.BucketConfigurations;
import io.github.ratelimit.storage.redis.PendingDecision;
import io.github.ratelimit.storage.redis.RedisRateLimitStore;
import io.github.ratelimit.storage.redis.connection.AnswerWatch;
import io.github.ratelimit.storage.redis.connection.BackoffRetryStrategy;
import io.github.ratelimit.storage.redis.connection.CircuitBreaker;
import io.github.ratelimit.storage.redis.connection.RedisConnector;
import io.github.ratelimit.storage.redis.script.RedisScriptRateLimitStore;

/**
 * The {@code bucket4j} strategy: buckets kept by Bucket4j's Lettuce compare-and-swap
 * proxy manager, through its asynchronous API.
 * <ul>
 * <li><b>No drain by compensation.</b> The checks of a request go to Redis in parallel;
 * when one bucket refuses, the tokens taken from the others are given back before the
 * answer (Bucket4j has no atomic multi-bucket operation). That costs 2 round trips per
 * admitted bucket (GET, then a compare-and-swap EVAL), 3 for a new key.</li>
 * <li><b>Hot keys.</b> Bucket proxies are cached per key with Bucket4j's batching, so
 * concurrent requests on one key share a round trip instead of colliding;
 * compare-and-swap conflicts between instances are retried a bounded number of times with
 * backoff.</li>
 * <li><b>Idle keys vanish.</b> A bucket's key expires once the bucket would be full
 * again.</li>
 * </ul>
 * <b>Clock.</b> Bucket4j computes refills from this JVM's clock ({@code clock}, the
 * system wall clock by default), not from Redis: instances whose clocks disagree refill a
 * shared bucket a little early or late. Keep their clocks synchronised (NTP). The
 * {@code script} strategy ({@link RedisScriptRateLimitStore}) has none of these costs.
 */
public final class Bucket4jRedisRateLimitStore extends RedisRateLimitStore<Bucket4jSession> {

	/** The default bound of the bucket proxy cache. */
	public static final long DEFAULT_MAX_CACHED_BUCKETS = 100_000;

	/**
	 * Kept past the refill so that instances whose clocks disagree slightly never see a
	 * key vanish early.
	 */
	private static final Duration KEEP_AFTER_REFILL = Duration.ofSeconds(1);

	/**
	 * The bucket of the warm-up at connect: gone a second after it is full again, if not
	 * deleted.
	 */
	private static final BucketConfiguration WARM_UP_BUCKET = BucketConfiguration.builder()
		.addLimit((limit) -> limit.capacity(1).refillGreedy(1, Duration.ofSeconds(1)))
		.build();

	// enough for a dozen instances on one hot key (batching leaves one contender per
	// instance); the wait bounds the rest
	private static final int MAX_CAS_ATTEMPTS = 16;

	private final TimeMeter clock;

	private final long maxCachedBuckets;

	private final BucketConfigurations configurations = new BucketConfigurations();

	/**
	 * Creates a store with the system clock and the default proxy cache bound. Nothing is
	 * connected yet.
	 * @param connector opens the store's connection
	 * @param timeout how long Redis may stay silent, such as {@link #DEFAULT_TIMEOUT}
	 * @param circuitBreaker the breaker that stops calls to a failing Redis
	 */
	public Bucket4jRedisRateLimitStore(RedisConnector connector, Duration timeout, CircuitBreaker circuitBreaker) {
		this(connector, timeout, circuitBreaker, TimeMeter.SYSTEM_MILLISECONDS, DEFAULT_MAX_CACHED_BUCKETS);
	}

	/**
	 * Creates a store. Nothing is connected yet.
	 * @param connector opens the store's connection
	 * @param timeout how long Redis may stay silent, such as {@link #DEFAULT_TIMEOUT}
	 * @param circuitBreaker the breaker that stops calls to a failing Redis
	 * @param clock the clock of the buckets: a wall clock shared in meaning by every
	 * instance ({@link TimeMeter#SYSTEM_MILLISECONDS} outside tests)
	 * @param maxCachedBuckets the most bucket proxies kept for reuse
	 */
	public Bucket4jRedisRateLimitStore(RedisConnector connector, Duration timeout, CircuitBreaker circuitBreaker,
			TimeMeter clock, long maxCachedBuckets) {
		super(connector, timeout, circuitBreaker);
		if (maxCachedBuckets < 1) {
			throw new IllegalArgumentException("maxCachedBuckets must be positive, was " + maxCachedBuckets);
		}
		this.clock = clock;
		this.maxCachedBuckets = maxCachedBuckets;
	}

	@Override
	protected byte[] bucketKey(LimitCheck check) {
		return Bucket4jSession.key(check).getBytes(java.nio.charset.StandardCharsets.UTF_8);
	}

	@Override
	protected PendingDecision send(Bucket4jSession session, List<LimitCheck> checks) {
		CompensatingDecision decision = new CompensatingDecision(session, checks);
		decision.start();
		return decision;
	}

	@Override
	protected CompletableFuture<?> sendGiveBack(Bucket4jSession session, List<LimitCheck> checks) {
		CompletableFuture<?>[] added = new CompletableFuture<?>[checks.size()];
		for (int i = 0; i < added.length; i++) {
			// addTokens never fills a bucket above its capacity
			added[i] = session.bucket(checks.get(i)).addTokens(checks.get(i).cost());
		}
		return CompletableFuture.allOf(added);
	}

	@Override
	protected Bucket4jSession openSession(StatefulConnection<byte[], byte[]> connection) {
		LettuceBasedProxyManagerBuilder<byte[]> builder;
		// every answer Bucket4j reads (a GET, a compare-and-swap) tells the silence rule
		// Redis is answering:
		// one decision takes several round trips, and a burst queues behind one key's
		// batch
		if (connection instanceof StatefulRedisClusterConnection<byte[], byte[]> cluster) {
			builder = Bucket4jLettuce.casBasedBuilder(
					AnswerWatch.of(RedisAdvancedClusterAsyncCommands.class, cluster.async(), this::answered));
		}
		else if (connection instanceof StatefulRedisConnection<byte[], byte[]> standalone) {
			builder = Bucket4jLettuce
				.casBasedBuilder(AnswerWatch.of(RedisAsyncCommands.class, standalone.async(), this::answered));
		}
		else {
			connection.closeAsync();
			throw new IllegalArgumentException("Unsupported Redis connection " + connection.getClass().getName());
		}
		AsyncProxyManager<byte[]> proxyManager = builder
			.expirationAfterWrite(ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(KEEP_AFTER_REFILL))
			.requestTimeout(maxWait())
			.retryStrategy(new BackoffRetryStrategy(MAX_CAS_ATTEMPTS))
			.clientClock(this.clock)
			.build()
			.asAsync();
		warmUp(proxyManager);
		return new Bucket4jSession(connection, proxyManager, this.configurations, this.maxCachedBuckets);
	}

	/**
	 * Takes a token from a bucket of its own and gives it back, on the connecting thread,
	 * then deletes the bucket: the first decisions then do not wait while this JVM loads
	 * the code that sends and reads Bucket4j's compare-and-swap commands. A failure here
	 * is harmless.
	 */
	private void warmUp(AsyncProxyManager<byte[]> proxyManager) {
		byte[] key = ("ratelimit:warm-up:" + UUID.randomUUID()).getBytes(StandardCharsets.UTF_8);
		long wait = maxWait().toMillis();
		try {
			AsyncBucketProxy bucket = proxyManager.builder()
				.build(key, () -> CompletableFuture.completedFuture(WARM_UP_BUCKET));
			bucket.asVerbose().tryConsume(1).get(wait, TimeUnit.MILLISECONDS);
			bucket.asVerbose().addTokens(1).get(wait, TimeUnit.MILLISECONDS);
			proxyManager.removeProxy(key).get(wait, TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (ExecutionException | TimeoutException | RuntimeException ex) {
			// the first decision pays for it instead
		}
	}

	@Override
	public String name() {
		return "redis-bucket4j";
	}

}
