package io.github.ratelimit.storage.redis;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import io.github.bucket4j.TimeMeter;

/**
 * A wall clock for Bucket4j that moves only when a test says so, so refill tests need no sleeps.
 */
final class ManualTimeMeter implements TimeMeter {

	private final AtomicLong nanos = new AtomicLong(System.currentTimeMillis() * 1_000_000L);

	@Override
	public long currentTimeNanos() {
		return this.nanos.get();
	}

	@Override
	public boolean isWallClockBased() {
		return true;
	}

	void advance(Duration duration) {
		this.nanos.addAndGet(duration.toNanos());
	}

}
