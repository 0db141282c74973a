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

	/**
	 * The time between two slots, in ms, rounded up (at least 1): what {@code t} and
	 * {@code Retry-After} say when the next slot is taken.
	 */
	public long slotMillis() {
		return Math.max(1, -Math.floorDiv(-this.period.toMillis(), this.rate));
	}

}
