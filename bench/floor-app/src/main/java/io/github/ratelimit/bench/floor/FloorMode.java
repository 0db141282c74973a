package io.github.ratelimit.bench.floor;

import java.util.Locale;

/** What {@link FloorFilter} does per request. */
enum FloorMode {

	/** Nothing: the app's own baseline. */
	OFF,

	/**
	 * Nothing decided, but the sample app's rate-limit headers sent ({@link FloorHeadersValve}):
	 * the price of the headers alone.
	 */
	HEADERS,

	/** One blocking {@code PING}: the cheapest Redis trip. */
	PING,

	/**
	 * One blocking {@code EVALSHA} of a single-key token bucket: the cheapest one-trip
	 * limiter.
	 */
	SCRIPT,

	/**
	 * No trip: one token from each of two Bucket4j local buckets of the client address
	 * (the sample's tier limit and backstop) in a bounded Caffeine map ({@link FloorBuckets}):
	 * the cheapest in-memory limiter of the sample's two limits, without headers.
	 */
	MEMORY;

	static FloorMode of(String value) {
		try {
			return valueOf(value.trim().toUpperCase(Locale.ROOT));
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException("floor.mode must be off, headers, ping, script or memory (got '" + value + "')", ex);
		}
	}

}
