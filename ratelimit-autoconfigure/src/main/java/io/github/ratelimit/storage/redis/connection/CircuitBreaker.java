package io.github.ratelimit.storage.redis.connection;

import java.time.Duration;
import java.util.function.LongSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stops a store from paying its timeout on every request while its backend is down.
 * Closed, it lets every call through and counts consecutive failures; after
 * {@code failureThreshold} of them it opens and refuses calls for {@code coolDown}; then
 * it lets a single probe through (half-open): a success closes it, a failure opens it for
 * another cool-down. With the defaults (5 failures, 1 s) enforcement resumes about a
 * second after the backend returns.
 * <p>
 * Thread-safe. The closed path, taken by almost every call, reads one volatile field and
 * takes no lock.
 */
public final class CircuitBreaker {

	/** Consecutive failures that open a breaker built with {@link #CircuitBreaker()}. */
	public static final int DEFAULT_FAILURE_THRESHOLD = 5;

	/**
	 * How long a breaker built with {@link #CircuitBreaker()} stays open before it
	 * probes.
	 */
	public static final Duration DEFAULT_COOL_DOWN = Duration.ofSeconds(1);

	private static final Logger logger = LoggerFactory.getLogger(CircuitBreaker.class);

	private final int failureThreshold;

	private final long coolDownNanos;

	private final LongSupplier nanoTime;

	private volatile State state = State.CLOSED;

	private volatile int consecutiveFailures;

	/**
	 * When the breaker last opened, or when the current half-open probe was let through.
	 */
	private long since;

	/**
	 * Creates a breaker that opens after {@value #DEFAULT_FAILURE_THRESHOLD} consecutive
	 * failures and probes after one second.
	 */
	public CircuitBreaker() {
		this(DEFAULT_FAILURE_THRESHOLD, DEFAULT_COOL_DOWN, System::nanoTime);
	}

	/**
	 * Creates a breaker.
	 * @param failureThreshold consecutive failures that open the breaker (at least 1)
	 * @param coolDown how long it stays open before it lets a probe through (positive)
	 */
	public CircuitBreaker(int failureThreshold, Duration coolDown) {
		this(failureThreshold, coolDown, System::nanoTime);
	}

	/**
	 * Creates a breaker with its own time source, so tests need no sleeps.
	 * @param failureThreshold consecutive failures that open the breaker (at least 1)
	 * @param coolDown how long it stays open before it lets a probe through (positive)
	 * @param nanoTime a monotonic time source in nanoseconds, as
	 * {@link System#nanoTime()}
	 */
	public CircuitBreaker(int failureThreshold, Duration coolDown, LongSupplier nanoTime) {
		if (failureThreshold < 1) {
			throw new IllegalArgumentException("failureThreshold must be at least 1, was " + failureThreshold);
		}
		if (coolDown.isNegative() || coolDown.isZero()) {
			throw new IllegalArgumentException("coolDown must be positive, was " + coolDown);
		}
		this.failureThreshold = failureThreshold;
		this.coolDownNanos = coolDown.toNanos();
		this.nanoTime = nanoTime;
	}

	/**
	 * Asks whether a call may go to the backend now. Every call this returns {@code true}
	 * for must be followed by {@link #recordSuccess()} or {@link #recordFailure()}.
	 * @return {@code true} when closed, or when this call is the half-open probe
	 */
	public boolean tryAcquire() {
		if (this.state == State.CLOSED) {
			return true;
		}
		synchronized (this) {
			long now = this.nanoTime.getAsLong();
			switch (this.state) {
				case CLOSED:
					return true;
				case OPEN:
					if (now - this.since < this.coolDownNanos) {
						return false;
					}
					this.state = State.HALF_OPEN;
					this.since = now;
					return true;
				default:
					// a probe that never reported (lost, or its caller died) must not
					// wedge the breaker
					if (now - this.since < this.coolDownNanos) {
						return false;
					}
					this.since = now;
					return true;
			}
		}
	}

	/** Reports that a call the breaker let through succeeded. */
	public void recordSuccess() {
		if (this.state == State.CLOSED && this.consecutiveFailures == 0) {
			return;
		}
		synchronized (this) {
			this.consecutiveFailures = 0;
			if (this.state == State.HALF_OPEN) {
				this.state = State.CLOSED;
				logger.info("Rate-limit store answered again; circuit breaker closed");
			}
			// in OPEN, a success is a call let through before the breaker opened: the
			// probe decides
		}
	}

	/** Reports that a call the breaker let through failed (error or timeout). */
	public void recordFailure() {
		synchronized (this) {
			switch (this.state) {
				case CLOSED:
					this.consecutiveFailures++;
					if (this.consecutiveFailures >= this.failureThreshold) {
						open();
						logger.warn(
								"Rate-limit store failed {} times in a row; circuit breaker open, "
										+ "probing every {} ms",
								this.consecutiveFailures, this.coolDownNanos / 1_000_000);
					}
					break;
				case HALF_OPEN:
					open();
					break;
				default:
					// in OPEN, a failure is a call let through before the breaker opened:
					// already counted
			}
		}
	}

	private void open() {
		this.state = State.OPEN;
		this.since = this.nanoTime.getAsLong();
	}

	/** The current state, for metrics and health. */
	public State state() {
		return this.state;
	}

	/** The states of a {@link CircuitBreaker}. */
	public enum State {

		/** Calls go through; consecutive failures are counted. */
		CLOSED,

		/** Calls are refused until the cool-down has passed. */
		OPEN,

		/** One probe is under way; its outcome closes or reopens the breaker. */
		HALF_OPEN

	}

}
