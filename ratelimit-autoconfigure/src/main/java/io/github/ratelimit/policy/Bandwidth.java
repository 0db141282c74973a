package io.github.ratelimit.policy;

/**
 * One item of a limit, of one of six kinds: a {@link TokenBucket} ({@code 100/1m}), a
 * {@link FixedWindow} ({@code 100/1m fixed}), a {@link SlidingWindow}
 * ({@code 100/1m sliding}), a {@link LeakyBucket} ({@code 10/1s leaky}), a
 * {@link CalendarQuota} ({@code 10000/month}) or a {@link ConcurrencyLimit}
 * ({@code 2 concurrent}). A request needs the cost from every item of every applicable
 * limit; stores decide each kind, headers read the quota, window and unit from it.
 */
public sealed interface Bandwidth permits TokenBucket, WindowQuota, ConcurrencyLimit, SlidingWindow, LeakyBucket {

	/**
	 * What a window grants ({@code q} in {@code RateLimit-Policy}): refill per period,
	 * quota, permits.
	 */
	long quota();

	/** The most a bucket of this item holds: a request costing more can never pass. */
	long capacity();

	/**
	 * The window in whole seconds (at least 1), as reported in
	 * {@code RateLimit-Policy: w=}; for a calendar quota its nominal length (a month is
	 * reported as 30 days, {@code t} says when it really resets).
	 */
	long windowSeconds();

	/**
	 * The item as written in configuration, normalised ({@code 1m}, {@code month},
	 * {@code concurrent}).
	 */
	String label();

	/** The quota unit ({@code qu} in {@code RateLimit-Policy}). */
	default String unit() {
		return "requests";
	}

}
