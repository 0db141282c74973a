package io.github.ratelimit.storage.memory;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

import io.github.bucket4j.TimeMeter;

/**
 * One time for both clocks of the memory store, the wall clock of quotas and the time meter of token
 * buckets and idle expiry, moved only by the test.
 */
final class ManualClock extends Clock implements TimeMeter {

	private final AtomicLong nanos = new AtomicLong();

	ManualClock(Instant start) {
		set(start);
	}

	void set(Instant instant) {
		this.nanos.set(instant.getEpochSecond() * 1_000_000_000L + instant.getNano());
	}

	void advance(Duration duration) {
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

	@Override
	public Instant instant() {
		long now = this.nanos.get();
		return Instant.ofEpochSecond(Math.floorDiv(now, 1_000_000_000L), Math.floorMod(now, 1_000_000_000L));
	}

	@Override
	public ZoneId getZone() {
		return ZoneOffset.UTC;
	}

	@Override
	public Clock withZone(ZoneId zone) {
		throw new UnsupportedOperationException("a test clock has one zone");
	}

}
