package io.github.ratelimit.test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

import io.github.bucket4j.TimeMeter;

/**
 * A wall clock that moves only when a test says so, as Bucket4j's time meter and as a
 * {@link Clock} (for calendar quotas) at once: refill tests need no sleeps. It starts at
 * the current time unless told otherwise, so stores that derive key expiry from it
 * (Redis) see plausible times.
 */
public final class ManualTimeMeter extends Clock implements TimeMeter {

	private final AtomicLong nanos = new AtomicLong();

	public ManualTimeMeter() {
		this(Instant.ofEpochMilli(System.currentTimeMillis()));
	}

	public ManualTimeMeter(Instant start) {
		set(start);
	}

	public void set(Instant instant) {
		this.nanos.set(instant.getEpochSecond() * 1_000_000_000L + instant.getNano());
	}

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
