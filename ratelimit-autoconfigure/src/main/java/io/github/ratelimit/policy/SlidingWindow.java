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

}
