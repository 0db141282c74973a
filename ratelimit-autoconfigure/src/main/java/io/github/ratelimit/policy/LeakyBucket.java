package io.github.ratelimit.policy;

import java.time.Duration;

/**
 * A leaky bucket that smooths ({@code 10/1s leaky}): requests are let through at a steady
 * rate, one every {@code period / rate}, never in a burst. A request is admitted when its
 * slot is due; with the group's {@code max-wait} it waits for a slot that comes within it
 * (a queue), without one it is refused. A request of cost {@code c} takes {@code c}
 * consecutive slots.
 *
 * @param rate the requests let through per period
 * @param period the period
 * @param label the period as written in configuration, normalised ({@code 1s})
 */
public record LeakyBucket(long rate, Duration period, String label) implements Bandwidth {

	/**
	 * The longest {@code max-wait} a group may have (ms): the parser keeps a backlog of
	 * that long exact.
	 */
	public static final long MAX_WAIT_MILLIS = 30_000;

	public LeakyBucket {
		if (rate < 1) {
			throw new IllegalArgumentException("rate must be positive");
		}
		if (period.toMillis() < 1) {
			throw new IllegalArgumentException("period must be at least 1ms");
		}
	}

	@Override
	public long quota() {
		return this.rate;
	}

	/**
	 * A request may take at most a period's worth of slots: one costing more could never
	 * be let through.
	 */
	@Override
	public long capacity() {
		return this.rate;
	}

	@Override
	public long windowSeconds() {
		return Math.max(1, -Math.floorDiv(-this.period.toMillis(), 1000));
	}

	/** The period in ms. */
	public long periodMillis() {
		return this.period.toMillis();
	}

	/**
	 * The time between two slots, in ms, rounded up (at least 1): what {@code t} and
	 * {@code Retry-After} say when the next slot is taken.
	 */
	public long slotMillis() {
		return Math.max(1, -Math.floorDiv(-this.period.toMillis(), this.rate));
	}

	/**
	 * The requests queued ahead of now, as the time until the next slot is due, kept in
	 * units of {@code 1/rate} ms so that a slot is exactly {@code period} (in ms) units
	 * long, whatever the rate. The arithmetic every store follows (the Redis script line
	 * by line), in integers: {@code rate x (period + the longest max-wait + 1 ms)} stays
	 * below 2^53.
	 *
	 * @param units the backlog in units of {@code 1/rate} ms; the next slot is due now
	 * while it is under {@code rate} (a millisecond)
	 * @param atMillis when the backlog was that (epoch ms)
	 */
	public record Backlog(long units, long atMillis) {

		/** No backlog: the next slot is due now. */
		public static Backlog empty(long nowMillis) {
			return new Backlog(0, nowMillis);
		}

		/**
		 * This backlog drained to {@code nowMillis} (a clock that went back drains
		 * nothing).
		 */
		public Backlog at(LeakyBucket bucket, long nowMillis) {
			long elapsed = nowMillis - this.atMillis;
			if (elapsed <= 0) {
				return this;
			}
			// elapsed x rate may overflow: compare in ms first
			if (elapsed >= Math.floorDiv(this.units, bucket.rate()) + 1) {
				return new Backlog(0, nowMillis);
			}
			return new Backlog(Math.max(0, this.units - elapsed * bucket.rate()), nowMillis);
		}

		/**
		 * How long until the next slot is due, in ms rounded down; 0 when it is due now,
		 * which a slot less than a millisecond away is. Requests arrive on a millisecond
		 * clock: rounding up would stretch every slot of a fractional length to the next
		 * millisecond (a {@code 3/1s} bucket would let 2.994 a second through) and cap a
		 * bucket at one request a millisecond (a {@code 5000/1s} one at 1000 a second).
		 */
		public long millisUntilDue(LeakyBucket bucket) {
			return Math.floorDiv(this.units, bucket.rate());
		}

		/** This backlog with a request of {@code cost} slots queued. */
		public Backlog plus(LeakyBucket bucket, long cost) {
			return new Backlog(this.units + cost * bucket.periodMillis(), this.atMillis);
		}

		/**
		 * This backlog without {@code cost} slots (a request given back), never below
		 * zero.
		 */
		public Backlog minus(LeakyBucket bucket, long cost) {
			return new Backlog(Math.max(0, this.units - cost * bucket.periodMillis()), this.atMillis);
		}

		/** 1 when a request would be let through now (its slot is due), else 0. */
		public long remaining(LeakyBucket bucket) {
			return (millisUntilDue(bucket) == 0) ? 1 : 0;
		}

	}

}
