package io.github.ratelimit.policy;

import java.time.Duration;

/**
 * A fixed window: {@code quota} requests per window of {@code period}, windows aligned on
 * the epoch (a {@code 1m} window starts at every whole minute, UTC), all of them back at
 * the boundary ({@code 100/1m fixed}). Simple and cheap, but a client may spend a
 * window's quota just before its end and the next one just after it: up to twice the
 * quota within a moment around the boundary.
 *
 * @param quota the requests a window grants
 * @param period the window's length
 * @param label the window as written in configuration, normalised ({@code 1m})
 */
public record FixedWindow(long quota, Duration period, String label) implements WindowQuota {

	public FixedWindow {
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

	@Override
	public CalendarQuota.Window window(long epochMillis) {
		long length = this.period.toMillis();
		long start = Math.floorDiv(epochMillis, length) * length;
		return new CalendarQuota.Window(start, start + length, start + 2 * length);
	}

}
