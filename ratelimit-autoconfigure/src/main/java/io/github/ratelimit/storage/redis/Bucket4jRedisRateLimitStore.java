package io.github.ratelimit.storage.redis;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.github.bucket4j.TimeMeter;
import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.distributed.proxy.AsyncProxyManager;
import io.github.bucket4j.redis.lettuce.Bucket4jLettuce;
import io.github.bucket4j.redis.lettuce.Bucket4jLettuce.LettuceBasedProxyManagerBuilder;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;

import io.github.ratelimit.storage.bucket4j.BucketConfigurations;
import io.github.ratelimit.storage.LimitCheck;
import io.github.ratelimit.storage.RateLimitStore;
import io.github.ratelimit.storage.StoreDecision;
import io.github.ratelimit.storage.StoreUnavailableException;

/**
 * Buckets in Redis, shared by every instance of the application, kept by Bucket4j's Lettuce
 * compare-and-swap proxy manager through its asynchronous API.
 * <ul>
 * <li><b>One decision, no drain.</b> The checks of a request go to Redis in parallel; when one bucket
 * refuses, the tokens taken from the others are given back before the answer, so a rejected request
 * drains nothing (Bucket4j has no atomic multi-bucket operation, hence the compensation).</li>
 * <li><b>Bounded time.</b> A decision takes at most {@code timeout} (Bucket4j's request timeout and the
 * store's own deadline); compare-and-swap conflicts are retried a bounded number of times with backoff.
 * Every failure, whatever Lettuce or Bucket4j threw, surfaces as {@link StoreUnavailableException}.</li>
 * <li><b>Lazy connection.</b> The store opens its own connection in the background on first use (or on
 * {@link #start()}); until it is open, and while it is disconnected, decisions fail at once instead of
 * queueing commands. The application starts while Redis is down.</li>
 * <li><b>Circuit breaker.</b> After repeated failures decisions fail at once without touching Redis,
 * until a probe succeeds.</li>
 * <li><b>Idle keys vanish.</b> A bucket's key expires once the bucket would be full again.</li>
 * <li><b>Hot keys.</b> Bucket proxies are cached per key with Bucket4j's batching, so concurrent requests
 * on one key share a round trip instead of colliding.</li>
 * </ul>
 * <b>Clock.</b> Bucket4j computes refills from this JVM's clock ({@code clock}, the system wall clock by
 * default), not from Redis: instances whose clocks disagree refill a shared bucket a little early or late.
 * Keep their clocks synchronised (NTP).
 * <p>
 * {@link #decideAsync} completes on a Lettuce I/O thread or a timer thread: continuations must not block.
 */
public final class Bucket4jRedisRateLimitStore implements RateLimitStore, AutoCloseable {

	/** The default budget of one decision. */
	public static final Duration DEFAULT_TIMEOUT = Duration.ofMillis(50);

	/** The default bound of the bucket proxy cache. */
	public static final long DEFAULT_MAX_CACHED_BUCKETS = 100_000;

	/** How often a lost connection is replaced by a new one, and a failed connect tried again. */
	static final Duration RECONNECT_INTERVAL = Duration.ofSeconds(1);

	/** Kept past the refill so that instances whose clocks disagree slightly never see a key vanish early. */
	private static final Duration KEEP_AFTER_REFILL = Duration.ofSeconds(1);

	// enough for a dozen instances on one hot key (batching leaves one contender per instance); the timeout bounds the rest
	private static final int MAX_CAS_ATTEMPTS = 16;

	private final Duration timeout;

	private final long timeoutNanos;

	private final CircuitBreaker circuitBreaker;

	private final TimeMeter clock;

	private final long maxCachedBuckets;

	private final BucketConfigurations configurations = new BucketConfigurations();

	private final RedisConnectionKeeper connection;

	/**
	 * Creates a store with the system clock and the default proxy cache bound. Nothing is connected yet.
	 * @param connector opens the store's connection
	 * @param timeout the budget of one decision, such as {@link #DEFAULT_TIMEOUT}
	 * @param circuitBreaker the breaker that stops calls to a failing Redis
	 */
	public Bucket4jRedisRateLimitStore(RedisConnector connector, Duration timeout, CircuitBreaker circuitBreaker) {
		this(connector, timeout, circuitBreaker, TimeMeter.SYSTEM_MILLISECONDS, DEFAULT_MAX_CACHED_BUCKETS);
	}

	/**
	 * Creates a store. Nothing is connected yet.
	 * @param connector opens the store's connection
	 * @param timeout the budget of one decision, such as {@link #DEFAULT_TIMEOUT}
	 * @param circuitBreaker the breaker that stops calls to a failing Redis
	 * @param clock the clock of the buckets: a wall clock shared in meaning by every instance
	 * ({@link TimeMeter#SYSTEM_MILLISECONDS} outside tests)
	 * @param maxCachedBuckets the most bucket proxies kept for reuse
	 */
	public Bucket4jRedisRateLimitStore(RedisConnector connector, Duration timeout, CircuitBreaker circuitBreaker,
			TimeMeter clock, long maxCachedBuckets) {
		if (timeout.isNegative() || timeout.isZero()) {
			throw new IllegalArgumentException("timeout must be positive, was " + timeout);
		}
		if (maxCachedBuckets < 1) {
			throw new IllegalArgumentException("maxCachedBuckets must be positive, was " + maxCachedBuckets);
		}
		this.timeout = timeout;
		this.timeoutNanos = timeout.toNanos();
		this.circuitBreaker = circuitBreaker;
		this.clock = clock;
		this.maxCachedBuckets = maxCachedBuckets;
		this.connection = new RedisConnectionKeeper(connector, this::openSession, timeout, RECONNECT_INTERVAL,
				System::nanoTime);
	}

	/**
	 * Starts connecting in the background now rather than on the first decision. Never blocks; a Redis
	 * that is down is tried again every second.
	 */
	public void start() {
		this.connection.start();
	}

	/** Whether the store has an open connection to Redis right now. */
	public boolean isConnected() {
		return this.connection.isConnected();
	}

	/** The circuit breaker, for metrics and health. */
	public CircuitBreaker circuitBreaker() {
		return this.circuitBreaker;
	}

	@Override
	public StoreDecision decide(List<LimitCheck> checks) {
		CompletableFuture<StoreDecision> decision = decideAsync(checks);
		try {
			return decision.get(this.timeoutNanos, TimeUnit.NANOSECONDS);
		}
		catch (ExecutionException ex) {
			throw unavailable(ex.getCause());
		}
		catch (TimeoutException ex) {
			throw unavailable(ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new StoreUnavailableException("Interrupted while waiting for Redis", ex);
		}
	}

	@Override
	public CompletableFuture<StoreDecision> decideAsync(List<LimitCheck> checks) {
		if (checks.isEmpty()) {
			return CompletableFuture.completedFuture(new StoreDecision(true, List.of()));
		}
		if (!this.circuitBreaker.tryAcquire()) {
			return CompletableFuture.failedFuture(new StoreUnavailableException("Redis circuit breaker is open"));
		}
		RedisSession session = this.connection.session();
		if (session == null) {
			this.circuitBreaker.recordFailure();
			return CompletableFuture.failedFuture(new StoreUnavailableException("Not connected to Redis"));
		}
		CompensatingDecision decision;
		CompletableFuture<StoreDecision> pending;
		try {
			decision = new CompensatingDecision(session, checks);
			pending = decision.start();
		}
		catch (RuntimeException ex) {
			this.circuitBreaker.recordFailure();
			return CompletableFuture.failedFuture(unavailable(ex));
		}
		// a future of our own, so callers see StoreUnavailableException itself, never a CompletionException
		CompletableFuture<StoreDecision> result = new CompletableFuture<>();
		pending.orTimeout(this.timeoutNanos, TimeUnit.NANOSECONDS).whenComplete((answer, failure) -> {
			if (failure == null) {
				this.circuitBreaker.recordSuccess();
				result.complete(answer);
			}
			else {
				decision.abandon();
				this.circuitBreaker.recordFailure();
				result.completeExceptionally(unavailable(failure));
			}
		});
		return result;
	}

	/** Closes the store's connection. */
	@Override
	public void close() {
		this.connection.close();
	}

	private RedisSession openSession(StatefulConnection<byte[], byte[]> connection) {
		LettuceBasedProxyManagerBuilder<byte[]> builder;
		if (connection instanceof StatefulRedisClusterConnection<byte[], byte[]> cluster) {
			builder = Bucket4jLettuce.casBasedBuilder(cluster);
		}
		else if (connection instanceof StatefulRedisConnection<byte[], byte[]> standalone) {
			builder = Bucket4jLettuce.casBasedBuilder(standalone);
		}
		else {
			connection.closeAsync();
			throw new IllegalArgumentException("Unsupported Redis connection " + connection.getClass().getName());
		}
		AsyncProxyManager<byte[]> proxyManager = builder
			.expirationAfterWrite(ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(KEEP_AFTER_REFILL))
			.requestTimeout(this.timeout)
			.retryStrategy(new BackoffRetryStrategy(MAX_CAS_ATTEMPTS))
			.clientClock(this.clock)
			.build()
			.asAsync();
		return new RedisSession(connection, proxyManager, this.configurations, this.maxCachedBuckets);
	}

	private StoreUnavailableException unavailable(Throwable failure) {
		Throwable cause = failure;
		while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
			cause = cause.getCause();
		}
		if (cause instanceof StoreUnavailableException unavailable) {
			return unavailable;
		}
		if (cause instanceof TimeoutException || cause instanceof io.github.bucket4j.TimeoutException) {
			return new StoreUnavailableException("Redis did not decide within " + this.timeout.toMillis() + " ms", cause);
		}
		return new StoreUnavailableException("Redis could not decide: " + cause, cause);
	}

}
