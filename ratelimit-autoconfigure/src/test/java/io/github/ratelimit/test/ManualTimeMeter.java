package io.github.ratelimit.test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import io.github.bucket4j.TimeMeter;

/**
 * A wall clock for Bucket4j that moves only when a test says so: refill tests need no sleeps. It starts
 * at the current time, so stores that derive key expiry from it (Redis) see plausible times.
 */
public final class ManualTimeMeter implements TimeMeter {

	private final AtomicLong nanos = new AtomicLong(System.currentTimeMillis() * 1_000_000L);

	public void advance(Duration duration) {
		this.nanos.addAndGet(duration.toNanos());
	}

	@Override
	public long currentTimeNanos() {
		return this.nanos.get();
	}

	@Override
	public boolean isWallClockBased() {
		return true;
	}

}
