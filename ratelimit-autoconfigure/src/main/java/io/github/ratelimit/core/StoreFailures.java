package io.github.ratelimit.core;

import java.time.Clock;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.ratelimit.storage.StoreDecision;
import io.github.ratelimit.storage.StoreUnavailableException;

/**
 * The decisions a limiter's store failed, which the failure mode took instead: how many
 * of each {@link StoreUnavailableException.Kind kind} (metrics), the
 * {@link FailureModeLog} (its WARN lines, and the last failure for health), and the
 * throttled warning about a store whose answer is inconsistent.
 * <p>
 * Thread-safe; recording takes no lock.
 */
public final class StoreFailures {

	// the limiter's category, where these lines have always been written
	private static final Logger logger = LoggerFactory.getLogger(RateLimiter.class);

	private static final long WARNING_INTERVAL_NANOS = 1_000_000_000L;

	private final FailureMode failureMode;

	private final LongAdder[] counts = new LongAdder[StoreUnavailableException.Kind.values().length];

	private final FailureModeLog failureModeLog;

	private final AtomicLong lastInconsistencyWarning = new AtomicLong(System.nanoTime() - WARNING_INTERVAL_NANOS);

	private final AtomicLong inconsistencies = new AtomicLong();

	StoreFailures(FailureMode failureMode, Clock clock) {
		this.failureMode = failureMode;
		for (int i = 0; i < this.counts.length; i++) {
			this.counts[i] = new LongAdder();
		}
		this.failureModeLog = new FailureModeLog(failureMode, clock);
	}

	/**
	 * How many decisions the store failed, of one kind, since the limiter was created.
	 */
	public long count(StoreUnavailableException.Kind kind) {
		return this.counts[kind.ordinal()].sum();
	}

	/** The decisions the failure mode took: the last one and how many, for health. */
	public FailureModeLog failureModeLog() {
		return this.failureModeLog;
	}

	/**
	 * Records a decision the store failed: counted by its kind, and never silent (a
	 * rate-limited WARN says why and what the failure mode did).
	 */
	void record(Throwable failure) {
		StoreUnavailableException.Kind kind = (failure instanceof StoreUnavailableException unavailable)
				? unavailable.kind() : StoreUnavailableException.Kind.ERROR;
		this.counts[kind.ordinal()].increment();
		this.failureModeLog.record(kind, (failure.getMessage() != null) ? failure.getMessage() : failure.toString());
		logger.debug("Rate-limit store failed; failure mode {}", this.failureMode, failure);
	}

	/**
	 * Warns that the store refused a request but named no short bucket, at most one line
	 * a second: a broken store answers every request the same way.
	 * @param storeDecision the store's answer
	 * @return the failure to {@link #record(Throwable) record}
	 */
	StoreUnavailableException inconsistent(StoreDecision storeDecision) {
		long now = System.nanoTime();
		long last = this.lastInconsistencyWarning.get();
		if (now - last >= WARNING_INTERVAL_NANOS && this.lastInconsistencyWarning.compareAndSet(last, now)) {
			logger.warn(
					"The rate-limit store refused a request but reported no short bucket ({} more since the "
							+ "last line); failure mode {} applies: {}",
					this.inconsistencies.getAndSet(0), this.failureMode, storeDecision);
		}
		else {
			this.inconsistencies.incrementAndGet();
		}
		return new StoreUnavailableException(StoreUnavailableException.Kind.INCONSISTENT, "inconsistent store answer",
				null);
	}

}
