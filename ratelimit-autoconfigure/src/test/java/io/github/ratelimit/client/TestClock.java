package io.github.ratelimit.client;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A clock that only moves when a test (or a recorded wait) moves it: waits are recorded,
 * never slept.
 */
final class TestClock extends Clock {

	/** A whole second, so that an HTTP date (second resolution) names it exactly. */
	static final Instant START = Instant.parse("2026-03-02T10:15:30Z");

	private final AtomicReference<Instant> now = new AtomicReference<>(START);

	void advance(Duration duration) {
		this.now.updateAndGet((instant) -> instant.plus(duration));
	}

	@Override
	public Instant instant() {
		return this.now.get();
	}

	@Override
	public ZoneId getZone() {
		return ZoneOffset.UTC;
	}

	@Override
	public Clock withZone(ZoneId zone) {
		throw new UnsupportedOperationException();
	}

}
