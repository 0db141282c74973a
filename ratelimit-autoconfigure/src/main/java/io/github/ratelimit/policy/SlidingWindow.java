package io.github.ratelimit.policy;

import java.time.Duration;

/**
 * A sliding window ({@code 100/1m sliding}): at most {@code quota} requests in the window
 * of {@code period} that ends now, estimated from two counters (the window aligned on the
 * epoch that holds now, and the one before it, weighted by how much of it still lies in
 * the sliding window). No burst at a boundary: right after one, the previous window's
 * count still weighs almost fully. Requests free up gradually as the previous window
 * slides out.
 *
 * @param quota the requests the sliding window holds
 * @param period the window's length
 * @param label the window as written in configuration, normalised ({@code 1m})
 */
public record SlidingWindow(long quota, Duration period, String label) implements Bandwidth {

	public SlidingWindow {
		if (quota < 1) {
			throw new IllegalArgumentException("quota must be positive");
		}
		if (period.toMillis() < 1) {
			throw new IllegalArgumentException("period must be at least 1ms");
		}
	}

	@Override
	public long capacity() {
		return this.quota;
	}

	@Override
	public long windowSeconds() {
		return Math.max(1, -Math.floorDiv(-this.period.toMillis(), 1000));
	}

	/** The window's length in ms. */
	public long periodMillis() {
		return this.period.toMillis();
	}

	/**
	 * The start of the aligned window that holds {@code epochMillis}; the previous one
	 * starts one period earlier.
	 * @param epochMillis the time
	 * @return the window's start in epoch ms
	 */
	public long windowStart(long epochMillis) {
		long length = this.period.toMillis();
		return Math.floorDiv(epochMillis, length) * length;
	}

	/**
	 * The counts of a sliding window: the count of the aligned window that starts at
	 * {@code start} and of the one before it. The arithmetic every store follows (the
	 * Redis script line by line), in integers: {@code quota x period} stays below 2^53.
	 * The requests in the sliding window that ends at {@code now} are estimated as
	 * {@code previous x (period - elapsed) / period + current}, {@code elapsed} being
	 * {@code now - start}.
	 *
	 * @param start the start of the current aligned window (epoch ms)
	 * @param previous the requests counted in the window before it
	 * @param current the requests counted in it
	 */
	public record Counts(long start, long previous, long current) {

		/** No request counted. */
		public static Counts empty(SlidingWindow window, long nowMillis) {
			return new Counts(window.windowStart(nowMillis), 0, 0);
		}

		/**
		 * These counts moved to the aligned window that holds {@code nowMillis}: the
		 * current count becomes the previous one when the next window starts, both are
		 * zero once a whole window has passed. A clock that went back moves nothing (the
		 * counts then weigh at least as much as at their window's start): forgetting them
		 * would admit a whole quota more.
		 */
		public Counts at(SlidingWindow window, long nowMillis) {
			long now = window.windowStart(nowMillis);
			if (now <= this.start) {
				return this;
			}
			return new Counts(now, (now == this.start + window.periodMillis()) ? this.current : 0, 0);
		}

		/**
		 * The estimate scaled by the period: previous x (period - elapsed) + current x
		 * period.
		 */
		private long scaledUsed(SlidingWindow window, long nowMillis, long extra) {
			long period = window.periodMillis();
			return this.previous * (period - (nowMillis - this.start)) + (this.current + extra) * period;
		}

		/** Whether {@code cost} more requests fit (counts already {@link #at} now). */
		public boolean fits(SlidingWindow window, long cost, long nowMillis) {
			return this.current + cost <= window.quota()
					&& scaledUsed(window, nowMillis, cost) <= window.quota() * window.periodMillis();
		}

		/** The requests left now, rounded down, never negative. */
		public long remaining(SlidingWindow window, long nowMillis) {
			long period = window.periodMillis();
			long left = window.quota() * period - scaledUsed(window, nowMillis, 0);
			return Math.max(0, Math.floorDiv(left, period));
		}

		/** These counts with {@code cost} more requests in the current window. */
		public Counts plus(long cost) {
			return new Counts(this.start, this.previous, this.current + cost);
		}

		/**
		 * These counts without {@code cost} requests counted in the window that started
		 * at {@code countedIn}: taken from the current count, or from the previous one
		 * when a window started since; nothing when that window is gone. Never below
		 * zero.
		 */
		public Counts minus(SlidingWindow window, long cost, long countedIn) {
			if (countedIn == this.start) {
				return new Counts(this.start, this.previous, Math.max(0, this.current - cost));
			}
			if (countedIn == this.start - window.periodMillis()) {
				return new Counts(this.start, Math.max(0, this.previous - cost), this.current);
			}
			return this;
		}

		/**
		 * How long until {@code cost} requests fit, 0 when they do now (counts already
		 * {@link #at} now; {@code cost} at most the quota).
		 */
		public long millisUntil(SlidingWindow window, long cost, long nowMillis) {
			if (fits(window, cost, nowMillis)) {
				return 0;
			}
			long period = window.periodMillis();
			long elapsed = nowMillis - this.start;
			if (this.current + cost <= window.quota()) {
				// in this window, once enough of the previous one has slid out; previous
				// > 0
				// here, since without it the cost would fit
				long room = (window.quota() - this.current - cost) * period;
				return Math.max(1, period - Math.floorDiv(room, this.previous) - elapsed);
			}
			// in the next window, where this window's count is the previous one
			long room = (window.quota() - cost) * period;
			long intoNext = (this.current > 0) ? Math.max(0, period - Math.floorDiv(room, this.current)) : 0;
			return (period - elapsed) + intoNext;
		}

		/** How long until nothing counted is in the sliding window any more. */
		public long millisUntilEmpty(SlidingWindow window, long nowMillis) {
			long period = window.periodMillis();
			if (this.current > 0) {
				return this.start + 2 * period - nowMillis;
			}
			return (this.previous > 0) ? this.start + period - nowMillis : 0;
		}

	}

}
