package io.github.ratelimit.control;

import java.time.Duration;

/**
 * When a caller that keeps being refused is banned, and for how long.
 *
 * @param refusals refusals within {@code window} that start a ban
 * @param window the window refusals are counted in
 * @param duration the first ban; each ban within {@code memory} of the last one's end
 * lasts twice as long
 * @param maxDuration the longest ban
 * @param memory how long after a ban ends a new one still counts as a repeat
 */
public record BanRule(int refusals, Duration window, Duration duration, Duration maxDuration, Duration memory) {

	public BanRule {
		if (refusals < 1) {
			throw new IllegalArgumentException("refusals must be at least 1");
		}
		if (window.toMillis() < 1 || duration.toMillis() < 1 || maxDuration.compareTo(duration) < 0
				|| memory.isNegative()) {
			throw new IllegalArgumentException("window and duration must be positive, max-duration at least duration");
		}
	}

	/**
	 * How long the {@code offence}-th ban (1 for the first) lasts: doubled each time, up
	 * to the longest.
	 */
	public long durationMillis(int offence) {
		long millis = this.duration.toMillis();
		long max = this.maxDuration.toMillis();
		for (int i = 1; i < offence && millis < max; i++) {
			millis = Math.min(max, millis * 2);
		}
		return Math.min(max, millis);
	}

}
