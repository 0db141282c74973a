package io.github.ratelimit.core;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.ratelimit.storage.StoreUnavailableException;

/**
 * Makes every decision taken by the failure mode loud: a WARN line saying why the store
 * failed, what the failure mode did and what that means for enforcement, at most one line
 * per {@link #LINE_INTERVAL} (with the number of decisions it covers, so an outage cannot
 * flood the log), and the last failure for the health indicator, which reports the store
 * degraded while the failure mode decided anything within {@link #RECENT}.
 * <p>
 * Thread-safe; recording takes no lock.
 */
public final class FailureModeLog {

	/** At most one WARN line this often. */
	public static final Duration LINE_INTERVAL = Duration.ofSeconds(10);

	/**
	 * How long after the failure mode last decided the store still counts as degraded.
	 */
	public static final Duration RECENT = Duration.ofSeconds(10);

	private static final Logger logger = LoggerFactory.getLogger(FailureModeLog.class);

	private final FailureMode failureMode;

	private final Clock clock;

	/**
	 * When the last line was written, in the clock's milliseconds; {@link Long#MIN_VALUE}
	 * before any.
	 */
	private final AtomicLong lastLineMillis = new AtomicLong(Long.MIN_VALUE);

	/** Decisions since the last line, that line's own included once written. */
	private final LongAdder sinceLastLine = new LongAdder();

	private final LongAdder total = new LongAdder();

	private volatile @Nullable Failure last;

	/**
	 * The last failure that was not the open circuit breaker: the cause a breaker's
	 * refusals go back to.
	 */
	private volatile @Nullable Failure lastCause;

	/**
	 * Creates a log.
	 * @param failureMode the configured failure mode, which the lines name
	 * @param clock when failures happen, and when lines are due
	 */
	public FailureModeLog(FailureMode failureMode, Clock clock) {
		this.failureMode = failureMode;
		this.clock = clock;
	}

	/**
	 * Records a decision the failure mode took, and writes a WARN line when none was
	 * written for {@link #LINE_INTERVAL}.
	 * @param kind what went wrong
	 * @param message the store's words for it
	 */
	public void record(StoreUnavailableException.Kind kind, @Nullable String message) {
		long now = this.clock.millis();
		Failure failure = new Failure(kind, cause(kind, message), Instant.ofEpochMilli(now));
		this.last = failure;
		if (kind != StoreUnavailableException.Kind.CIRCUIT_OPEN) {
			this.lastCause = failure;
		}
		this.total.increment();
		this.sinceLastLine.increment();
		long lastLine = this.lastLineMillis.get();
		if ((lastLine == Long.MIN_VALUE || now - lastLine >= LINE_INTERVAL.toMillis())
				&& this.lastLineMillis.compareAndSet(lastLine, now)) {
			long decisions = this.sinceLastLine.sumThenReset();
			logger.warn("Rate-limit store failed ({}: {}); failure mode {}: {} ({} decision{} since the last line)",
					kind.tag(), failure.message(), this.failureMode.name().toLowerCase(java.util.Locale.ROOT),
					effect(this.failureMode), decisions, (decisions == 1) ? "" : "s");
		}
	}

	/**
	 * The last decision the failure mode took, if within {@link #RECENT}; otherwise
	 * {@code null}.
	 */
	public @Nullable Failure recent() {
		Failure failure = this.last;
		if (failure == null || this.clock.millis() - failure.at().toEpochMilli() >= RECENT.toMillis()) {
			return null;
		}
		return failure;
	}

	/** How many decisions the failure mode took since this log was created. */
	public long total() {
		return this.total.sum();
	}

	/** The configured failure mode. */
	public FailureMode failureMode() {
		return this.failureMode;
	}

	/** What a failure mode does to requests, and to enforcement. */
	public static String effect(FailureMode failureMode) {
		return switch (failureMode) {
			case OPEN -> "requests are admitted without limits, enforcement is off";
			case CLOSED -> "requests are refused with 503, none is admitted";
			case LOCAL -> "requests are limited by this instance's own buckets, enforcement is per instance "
					+ "(N instances admit up to N times a limit)";
		};
	}

	private String cause(StoreUnavailableException.Kind kind, @Nullable String message) {
		String words = (message != null) ? message : kind.tag();
		Failure cause = this.lastCause;
		if (kind == StoreUnavailableException.Kind.CIRCUIT_OPEN && cause != null) {
			// the breaker only repeats an earlier failure: name it
			return words + " after: " + cause.message();
		}
		return words;
	}

	/**
	 * A decision taken by the failure mode.
	 *
	 * @param kind what went wrong
	 * @param message why, in the store's words
	 * @param at when
	 */
	public record Failure(StoreUnavailableException.Kind kind, String message, Instant at) {
	}

}
