package io.github.ratelimit.storage.redis;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.api.StatefulConnection;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.ratelimit.storage.LimitCheck;
import io.github.ratelimit.storage.RateLimitStore;
import io.github.ratelimit.storage.RemoteStore;
import io.github.ratelimit.storage.StoreDecision;
import io.github.ratelimit.storage.StoreUnavailableException;
import io.github.ratelimit.storage.redis.connection.CircuitBreaker;
import io.github.ratelimit.storage.redis.connection.RedisConnectionKeeper;
import io.github.ratelimit.storage.redis.connection.RedisConnector;
import io.github.ratelimit.storage.redis.connection.RedisSession;

/**
 * What both Redis strategies share: their own connection, opened lazily in the
 * background; a circuit breaker; and the rule that tells an unhealthy Redis from a busy
 * application.
 * <ul>
 * <li><b>Lazy connection.</b> The store opens its own connection in the background on
 * first use (or on {@link #start()}). The first decisions of a fresh instance wait for
 * that first connect, up to {@code timeout}; once connected, a lost connection fails
 * decisions at once instead of queueing commands. The application starts while Redis is
 * down.</li>
 * <li><b>Unhealthy is: not connected, an error, or silence.</b> A decision fails (and
 * counts against the breaker) at once when there is no connection or Redis answers an
 * error (out of memory, read-only replica, loading, busy script...), and when its answer
 * is late and Redis has answered <em>nothing</em> on the connection for {@code timeout}
 * since it was sent, not counting time this JVM was too busy to read an answer.
 * {@code timeout} is long by default ({@link #DEFAULT_TIMEOUT}) because a cold or starved
 * JVM easily leaves an answer unread for tens of milliseconds.</li>
 * <li><b>A late answer is not an outage.</b> A decision that Redis keeps answering around
 * (Redis is fine, this JVM is slow to read its answer) waits for it, up to
 * {@link #MAX_WAIT} (or {@code timeout} when longer); even then it gets the failure mode
 * without counting against the breaker. So neither a hot key nor a saturated application
 * can switch enforcement off for everyone.</li>
 * <li><b>Circuit breaker.</b> After repeated failures decisions fail at once without
 * touching Redis, until a probe succeeds.</li>
 * <li><b>Operators</b> ({@link #reset}, {@code inspect}) wait up to
 * {@link #OPERATOR_TIMEOUT} and are no business of the breaker: a slow endpoint read says
 * nothing about the request path.</li>
 * </ul>
 * Every failure, whatever Lettuce or Redis threw, surfaces as
 * {@link StoreUnavailableException}. {@link #decideAsync} completes on a Lettuce I/O
 * thread or the store's timer thread: continuations must not block.
 *
 * @param <S> the session the strategy builds on a connection
 */
public abstract class RedisRateLimitStore<S extends RedisSession>
		implements RateLimitStore, RemoteStore, AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(RedisRateLimitStore.class);

	/**
	 * The default {@code timeout}: how long Redis may stay silent before it counts as
	 * down. A second, not tens of milliseconds: class loading, JIT, GC and a busy
	 * scheduler keep a JVM from reading an answer for that long, and each such moment
	 * would otherwise switch enforcement to the failure mode. Still quick next to Redis's
	 * own failure detectors (Sentinel's {@code down-after-milliseconds}: 30 s; a
	 * Cluster's {@code cluster-node-timeout}: 15 s).
	 */
	public static final Duration DEFAULT_TIMEOUT = RedisStoreDefaults.TIMEOUT;

	/**
	 * The longest a decision waits for its own answer while Redis keeps answering others
	 * (unless {@code timeout} is longer): bounded, far from a hang, and on a machine that
	 * slow the request is slow whatever the limiter does.
	 */
	public static final Duration MAX_WAIT = Duration.ofSeconds(5);

	/** How long an operator's read or reset may wait for Redis. */
	public static final Duration OPERATOR_TIMEOUT = Duration.ofSeconds(5);

	/**
	 * How often a lost connection is replaced by a new one, and a failed connect tried
	 * again.
	 */
	static final Duration RECONNECT_INTERVAL = Duration.ofSeconds(1);

	/**
	 * Lettuce's command timeout on the store's connection. Long on purpose: the store
	 * stops waiting by itself, and a late answer must still arrive so that what it took
	 * is given back.
	 */
	static final Duration LATE_ANSWER_WINDOW = Duration.ofMinutes(1);

	private final Duration timeout;

	private final long timeoutNanos;

	private final Duration maxWait;

	private final long maxWaitNanos;

	private final CircuitBreaker circuitBreaker;

	private final RedisConnectionKeeper<S> connection;

	private final ScheduledThreadPoolExecutor timer;

	/** Follows decisions sent to Redis and keeps the breaker's books. */
	private final DecisionWatch decisions;

	protected RedisRateLimitStore(RedisConnector connector, Duration timeout, CircuitBreaker circuitBreaker) {
		if (timeout.isNegative() || timeout.isZero()) {
			throw new IllegalArgumentException("timeout must be positive, was " + timeout);
		}
		this.timeout = timeout;
		this.timeoutNanos = timeout.toNanos();
		this.maxWait = (timeout.compareTo(MAX_WAIT) > 0) ? timeout : MAX_WAIT;
		this.maxWaitNanos = this.maxWait.toNanos();
		this.circuitBreaker = circuitBreaker;
		this.connection = new RedisConnectionKeeper<>(connector, this::openSession, LATE_ANSWER_WINDOW,
				RECONNECT_INTERVAL, System::nanoTime);
		this.timer = new ScheduledThreadPoolExecutor(1, (task) -> {
			Thread thread = new Thread(task, "ratelimit-redis-timer");
			thread.setDaemon(true);
			return thread;
		});
		this.decisions = new DecisionWatch(circuitBreaker, this.timer, timeout, this.maxWait);
	}

	/**
	 * Builds the strategy's session on a freshly opened connection (on a background
	 * thread).
	 */
	protected abstract S openSession(StatefulConnection<byte[], byte[]> connection);

	/**
	 * Sends the checks of one request to Redis. May throw instead of returning a failed
	 * answer.
	 */
	protected abstract PendingDecision send(S session, List<LimitCheck> checks);

	/**
	 * Sends a give-back ({@link #giveBack(List)}) of checks on {@code session}. May
	 * throw.
	 */
	protected abstract CompletableFuture<?> sendGiveBack(S session, List<LimitCheck> checks);

	/**
	 * Sends the give-back without waiting for it: one more command, paid only by requests
	 * whose response a limit does not count. Without a connection it is dropped (the
	 * request stays counted); the circuit breaker neither gates it nor hears of it, since
	 * nobody waits for it.
	 */
	@Override
	public final void giveBack(List<LimitCheck> checks) {
		if (checks.isEmpty()) {
			return;
		}
		S session = this.connection.session();
		if (session == null || !session.isOpen()) {
			logger.debug("Not connected to Redis: {} tokens not given back (the requests stay counted)", checks.size());
			return;
		}
		try {
			sendGiveBack(session, checks).whenComplete((ignored, failure) -> {
				if (failure != null) {
					logger.debug("Redis did not take tokens back (the requests stay counted)", failure);
				}
				else {
					answered();
				}
			});
		}
		catch (RuntimeException ex) {
			logger.debug("Could not give tokens back to Redis (the requests stay counted)", ex);
		}
	}

	/**
	 * Starts connecting in the background now rather than on the first decision, and
	 * keeps the connection from then on without waiting for requests: a Redis that is
	 * down (or a connect that failed) is tried again every second. Never blocks. Spring
	 * calls it before the web server takes requests.
	 */
	public void start() {
		this.connection.start();
	}

	/**
	 * Closes the connection and stops reconnecting until {@link #start()}, without
	 * waiting for a connect under way. Spring calls it after the web server stopped.
	 */
	public void stop() {
		this.connection.stop();
	}

	/** Whether the store has an open connection to Redis right now. */
	@Override
	public boolean isConnected() {
		return this.connection.isConnected();
	}

	/** The circuit breaker, for metrics and health. */
	@Override
	public Circuit circuit() {
		return switch (this.circuitBreaker.state()) {
			case CLOSED -> Circuit.CLOSED;
			case OPEN -> Circuit.OPEN;
			case HALF_OPEN -> Circuit.HALF_OPEN;
		};
	}

	public CircuitBreaker circuitBreaker() {
		return this.circuitBreaker;
	}

	/**
	 * How long Redis may stay silent before a decision fails and counts against the
	 * breaker.
	 */
	public final Duration timeout() {
		return this.timeout;
	}

	/** The longest a decision waits, even for a Redis that keeps answering. */
	public final Duration maxWait() {
		return this.maxWait;
	}

	/**
	 * Notes that Redis answered something on this store's connection, for the silence
	 * rule.
	 */
	protected final void answered() {
		this.decisions.answered();
	}

	/** The Redis key of a check's bucket. */
	protected byte[] bucketKey(LimitCheck check) {
		return check.key().getBytes(StandardCharsets.UTF_8);
	}

	@Override
	public void reset(List<LimitCheck> checks) {
		S session = operatorSession();
		List<CompletableFuture<?>> deletes = new ArrayList<>();
		for (LimitCheck check : checks) {
			// one key per call: on a Cluster the keys of one identity live in different
			// slots
			deletes.add(session.delete(bucketKey(check)));
		}
		await(CompletableFuture.allOf(deletes.toArray(CompletableFuture[]::new)), OPERATOR_TIMEOUT.toNanos());
	}

	/**
	 * Decides checks for an operator (a read with checks of cost 0): up to
	 * {@link #OPERATOR_TIMEOUT}, around the breaker, which counts the request path's
	 * failures only.
	 */
	protected StoreDecision decideForOperator(List<LimitCheck> checks) {
		S session = operatorSession();
		PendingDecision pending;
		try {
			pending = send(session, checks);
		}
		catch (RuntimeException ex) {
			throw unavailable(ex);
		}
		try {
			StoreDecision decision = await(pending.answer(), OPERATOR_TIMEOUT.toNanos());
			answered();
			return decision;
		}
		catch (StoreUnavailableException ex) {
			pending.abandon();
			throw ex;
		}
	}

	/** The session for an operator's call, waiting for a first connect under way. */
	private S operatorSession() {
		S session = this.connection.session();
		CompletableFuture<@Nullable S> connecting = (session != null) ? null : this.connection.firstConnect();
		if (connecting != null) {
			session = await(connecting, OPERATOR_TIMEOUT.toNanos());
		}
		if (session == null) {
			throw notConnected();
		}
		return session;
	}

	@Override
	public StoreDecision decide(List<LimitCheck> checks) {
		// the timer completes the decision by maxWait; the margin only guards against a
		// lost timer
		return await(decideAsync(checks), this.maxWaitNanos + this.timeoutNanos * 2);
	}

	/**
	 * Waits for an answer of Redis; a failure, a timeout or an interrupt is the store
	 * being unavailable.
	 */
	private <T> T await(CompletableFuture<T> answer, long nanos) {
		return RedisFailures.await(answer, nanos, this.maxWait);
	}

	@Override
	public CompletableFuture<StoreDecision> decideAsync(List<LimitCheck> checks) {
		if (checks.isEmpty()) {
			return CompletableFuture.completedFuture(new StoreDecision(true, List.of()));
		}
		if (!this.circuitBreaker.tryAcquire()) {
			return CompletableFuture.failedFuture(new StoreUnavailableException(
					StoreUnavailableException.Kind.CIRCUIT_OPEN, "Redis circuit breaker is open", null));
		}
		S session = this.connection.session();
		if (session != null) {
			return send(session, checks, new CompletableFuture<>());
		}
		CompletableFuture<@Nullable S> connecting = this.connection.firstConnect();
		if (connecting == null) {
			this.circuitBreaker.recordFailure();
			return CompletableFuture.failedFuture(notConnected());
		}
		// a fresh instance connecting: its first decisions wait for the connect, up to
		// timeout
		CompletableFuture<StoreDecision> result = new CompletableFuture<>();
		try {
			// the connect's continuation and the deadline run on the timer thread, one
			// after the other
			this.timer.schedule(() -> {
				if (!result.isDone()) {
					this.circuitBreaker.recordFailure();
					result.completeExceptionally(
							new StoreUnavailableException(StoreUnavailableException.Kind.NOT_CONNECTED,
									"Not connected to Redis: the first connect took longer than "
											+ this.timeout.toMillis() + " ms",
									null));
				}
			}, this.timeoutNanos, TimeUnit.NANOSECONDS);
			connecting.thenAcceptAsync((connected) -> {
				if (result.isDone()) {
					return;
				}
				if (connected == null) {
					this.circuitBreaker.recordFailure();
					result.completeExceptionally(notConnected());
				}
				else {
					send(connected, checks, result);
				}
			}, this.timer);
		}
		catch (RejectedExecutionException ex) {
			result.completeExceptionally(new StoreUnavailableException("The Redis store is closed"));
		}
		return result;
	}

	/**
	 * Sends a decision the breaker let through, and completes {@code result} with its
	 * outcome.
	 */
	private CompletableFuture<StoreDecision> send(S session, List<LimitCheck> checks,
			CompletableFuture<StoreDecision> result) {
		long started = System.nanoTime();
		PendingDecision pending;
		try {
			pending = send(session, checks);
		}
		catch (RuntimeException ex) {
			this.circuitBreaker.recordFailure();
			result.completeExceptionally(RedisFailures.classify(session, ex, this.maxWait));
			return result;
		}
		this.decisions.follow(session, pending, started, result);
		return result;
	}

	/** Closes the store's connection. */
	@Override
	public void close() {
		this.timer.shutdownNow();
		this.connection.close();
	}

	private static StoreUnavailableException notConnected() {
		return new StoreUnavailableException(StoreUnavailableException.Kind.NOT_CONNECTED, "Not connected to Redis",
				null);
	}

	private StoreUnavailableException unavailable(Throwable failure) {
		return RedisFailures.classify(failure, this.maxWait);
	}

}
