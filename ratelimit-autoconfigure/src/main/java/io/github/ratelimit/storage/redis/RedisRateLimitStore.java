package io.github.ratelimit.storage.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import io.lettuce.core.api.StatefulConnection;

import io.github.ratelimit.storage.LimitCheck;
import io.github.ratelimit.storage.RateLimitStore;
import io.github.ratelimit.storage.StoreDecision;
import io.github.ratelimit.storage.StoreUnavailableException;

/**
 * What both Redis strategies share: their own connection, opened lazily in the background; a circuit
 * breaker; and the rule that tells an unhealthy Redis from a busy one.
 * <ul>
 * <li><b>Lazy connection.</b> The store opens its own connection in the background on first use (or on
 * {@link #start()}); until it is open, and while it is disconnected, decisions fail at once instead of
 * queueing commands. The application starts while Redis is down.</li>
 * <li><b>A burst is not an outage.</b> {@code timeout} is how long Redis may stay <em>silent</em>: a
 * decision fails (and counts against the breaker) when its answer is late and Redis has answered nothing
 * on the connection for {@code timeout} since it was sent, not counting time this JVM was too busy to
 * read an answer. While more than {@value #BURST_IN_FLIGHT} decisions are in flight (a burst), and for
 * {@value #BURST_SILENCE_FACTOR} times {@code timeout} after, Redis may stay silent
 * {@value #BURST_SILENCE_FACTOR} times as long. A decision that Redis keeps answering around
 * waits for its own answer, up to {@value #MAX_WAIT_FACTOR} times {@code timeout}; even then it gets the
 * failure mode without counting against the breaker. So neither a hot key nor a saturated application can
 * switch enforcement off for everyone, and a silent Redis costs a request {@code timeout}.</li>
 * <li><b>Circuit breaker.</b> After repeated failures decisions fail at once without touching Redis,
 * until a probe succeeds.</li>
 * </ul>
 * Every failure, whatever Lettuce or Redis threw, surfaces as {@link StoreUnavailableException}.
 * {@link #decideAsync} completes on a Lettuce I/O thread or the store's timer thread: continuations must
 * not block.
 *
 * @param <S> the session the strategy builds on a connection
 */
public abstract sealed class RedisRateLimitStore<S extends RedisSession> implements RateLimitStore, AutoCloseable
		permits RedisScriptRateLimitStore, Bucket4jRedisRateLimitStore {

	/** The default {@code timeout}: how long Redis may stay silent before a decision fails. */
	public static final Duration DEFAULT_TIMEOUT = Duration.ofMillis(50);

	/** In a burst, Redis may stay silent this many times {@code timeout} before it counts as down. */
	public static final int BURST_SILENCE_FACTOR = 10;

	/** A decision waits at most this many times {@code timeout}, even while Redis keeps answering others. */
	public static final int MAX_WAIT_FACTOR = 100;

	/** More decisions than this in flight at once are a burst, not a slow Redis. */
	static final int BURST_IN_FLIGHT = 8;

	/** How often a lost connection is replaced by a new one, and a failed connect tried again. */
	static final Duration RECONNECT_INTERVAL = Duration.ofSeconds(1);

	/**
	 * Lettuce's command timeout on the store's connection. Long on purpose: the store stops waiting by
	 * itself, and a late answer must still arrive so that what it took is given back.
	 */
	static final Duration LATE_ANSWER_WINDOW = Duration.ofMinutes(1);

	private final Duration timeout;

	private final long timeoutNanos;

	private final long burstSilenceNanos;

	private final long maxWaitNanos;

	private final CircuitBreaker circuitBreaker;

	private final RedisConnectionKeeper<S> connection;

	private final ScheduledThreadPoolExecutor timer;

	/** When Redis last answered anything on this store's connection. */
	private volatile long lastAnswerNanos;

	/** Decisions sent whose callers have no answer yet. */
	private final AtomicInteger inFlight = new AtomicInteger();

	/**
	 * Until when the store counts as in a burst: a burst's last decisions, few in flight by then, are as
	 * starved of CPU as its first ones were.
	 */
	private volatile long burstUntilNanos;

	RedisRateLimitStore(RedisConnector connector, Duration timeout, CircuitBreaker circuitBreaker) {
		if (timeout.isNegative() || timeout.isZero()) {
			throw new IllegalArgumentException("timeout must be positive, was " + timeout);
		}
		this.timeout = timeout;
		this.timeoutNanos = timeout.toNanos();
		this.burstSilenceNanos = Math.multiplyExact(this.timeoutNanos, BURST_SILENCE_FACTOR);
		this.maxWaitNanos = Math.multiplyExact(this.timeoutNanos, MAX_WAIT_FACTOR);
		this.circuitBreaker = circuitBreaker;
		this.connection = new RedisConnectionKeeper<>(connector, this::openSession, LATE_ANSWER_WINDOW, RECONNECT_INTERVAL,
				System::nanoTime);
		this.timer = new ScheduledThreadPoolExecutor(1, (task) -> {
			Thread thread = new Thread(task, "ratelimit-redis-timer");
			thread.setDaemon(true);
			return thread;
		});
	}

	/** Builds the strategy's session on a freshly opened connection (on a background thread). */
	/** How long an operator's read or reset may wait for Redis. */
	static final long OPERATOR_TIMEOUT_NANOS = 2_000_000_000L;

	abstract S openSession(StatefulConnection<byte[], byte[]> connection);

	/** Sends the checks of one request to Redis. May throw instead of returning a failed answer. */
	abstract PendingDecision send(S session, List<LimitCheck> checks);

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

	/** The longest a decision waits, even for a Redis that keeps answering. */
	public final Duration maxWait() {
		return this.timeout.multipliedBy(MAX_WAIT_FACTOR);
	}

	/** The Redis key of a check's bucket. */
	byte[] bucketKey(LimitCheck check) {
		return check.key().getBytes(java.nio.charset.StandardCharsets.UTF_8);
	}

	@Override
	public void reset(List<LimitCheck> checks) {
		S session = this.connection.session();
		if (session == null) {
			throw new StoreUnavailableException(StoreUnavailableException.Kind.NOT_CONNECTED, "Not connected to Redis", null);
		}
		List<CompletableFuture<?>> deletes = new ArrayList<>();
		for (LimitCheck check : checks) {
			// one key per call: on a Cluster the keys of one identity live in different slots
			deletes.add(session.delete(bucketKey(check)));
		}
		await(CompletableFuture.allOf(deletes.toArray(CompletableFuture[]::new)),
				Math.max(this.timeoutNanos, OPERATOR_TIMEOUT_NANOS));
	}

	@Override
	public StoreDecision decide(List<LimitCheck> checks) {
		// the timer completes the decision by maxWait; the margin only guards against a lost timer
		return await(decideAsync(checks), this.maxWaitNanos + this.timeoutNanos);
	}

	/** Waits for an answer of Redis; a failure, a timeout or an interrupt is the store being unavailable. */
	private <T> T await(CompletableFuture<T> answer, long nanos) {
		try {
			return answer.get(nanos, TimeUnit.NANOSECONDS);
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
			return CompletableFuture.failedFuture(new StoreUnavailableException(StoreUnavailableException.Kind.CIRCUIT_OPEN, "Redis circuit breaker is open", null));
		}
		S session = this.connection.session();
		if (session == null) {
			this.circuitBreaker.recordFailure();
			return CompletableFuture.failedFuture(new StoreUnavailableException(StoreUnavailableException.Kind.NOT_CONNECTED, "Not connected to Redis", null));
		}
		long started = System.nanoTime();
		PendingDecision pending;
		try {
			pending = send(session, checks);
		}
		catch (RuntimeException ex) {
			this.circuitBreaker.recordFailure();
			return CompletableFuture.failedFuture(unavailable(ex));
		}
		// a future of our own, so callers see StoreUnavailableException itself, never a CompletionException
		CompletableFuture<StoreDecision> result = new CompletableFuture<>();
		if (this.inFlight.incrementAndGet() > BURST_IN_FLIGHT) {
			this.burstUntilNanos = started + this.burstSilenceNanos;
		}
		// in flight until the caller has its answer: a decision given up on while Redis stays silent is no
		// part of a burst (during a pause, those would make every later decision wait the burst's silence)
		result.whenComplete((answer, failure) -> this.inFlight.decrementAndGet());
		pending.answer().whenComplete((answer, failure) -> {
			if (failure == null) {
				this.lastAnswerNanos = System.nanoTime();
				// when the timer got there first it abandoned the decision, which gives back what this answer took;
				// otherwise the breaker hears of the success before the caller does
				if (!result.isDone()) {
					this.circuitBreaker.recordSuccess();
					result.complete(answer);
				}
			}
			else if (!result.isDone()) {
				this.circuitBreaker.recordFailure();
				if (result.completeExceptionally(unavailable(failure))) {
					pending.abandon();
				}
			}
		});
		watch(result, pending, started, started + this.timeoutNanos);
		return result;
	}

	private void watch(CompletableFuture<StoreDecision> result, PendingDecision pending, long started, long due) {
		try {
			this.timer.schedule(() -> checkDeadline(result, pending, started, due), due - System.nanoTime(),
					TimeUnit.NANOSECONDS);
		}
		catch (RejectedExecutionException ex) {
			// closed meanwhile
			if (result.completeExceptionally(new StoreUnavailableException("The Redis store is closed"))) {
				pending.abandon();
			}
		}
	}

	private void checkDeadline(CompletableFuture<StoreDecision> result, PendingDecision pending, long started,
			long due) {
		if (result.isDone()) {
			return;
		}
		long now = System.nanoTime();
		// how long Redis has been silent since this decision was sent, less the time this JVM gave nobody a
		// chance to read an answer: a timer that ran late was starved of CPU, and so, likely, was the reader
		long silent = now - Math.max(this.lastAnswerNanos, started) - Math.max(0, now - due);
		long waited = now - started;
		// many decisions in flight is a burst: Redis gets the longest silence before it counts as down
		boolean burst = this.inFlight.get() > BURST_IN_FLIGHT || now - this.burstUntilNanos < 0;
		long allowed = burst ? this.burstSilenceNanos : this.timeoutNanos;
		if (silent >= allowed) {
			// the breaker hears of the failure before the caller does
			this.circuitBreaker.recordFailure();
			if (result.completeExceptionally(new StoreUnavailableException(StoreUnavailableException.Kind.TIMEOUT,
					"Redis answered nothing for " + TimeUnit.NANOSECONDS.toMillis(allowed) + " ms", null))) {
				pending.abandon();
			}
		}
		else if (waited >= this.maxWaitNanos) {
			// Redis is answering, this application is too busy to be answered in time: not Redis's fault, so
			// not the breaker's business
			if (result.completeExceptionally(new StoreUnavailableException(StoreUnavailableException.Kind.OVERLOADED,
					"Redis is answering, but this decision was queued for " + maxWait().toMillis() + " ms", null))) {
				pending.abandon();
			}
		}
		else {
			// queued behind others while Redis answers: look again when the silence would reach its limit
			watch(result, pending, started, now + Math.min(allowed - silent, this.maxWaitNanos - waited));
		}
	}

	/** Closes the store's connection. */
	@Override
	public void close() {
		this.timer.shutdownNow();
		this.connection.close();
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
			return new StoreUnavailableException(StoreUnavailableException.Kind.TIMEOUT, "Redis did not decide within " + maxWait().toMillis() + " ms",
					cause);
		}
		return new StoreUnavailableException("Redis could not decide: " + cause, cause);
	}

}
