package io.github.ratelimit.policy;

/**
 * A cap on requests in flight ({@code 2 concurrent}): a request takes a permit before the
 * handler runs and gives it back when its response completes, fails, or the client goes
 * away. In Redis a permit is a lease that expires unless renewed, so a crashed instance
 * leaks none for long.
 *
 * @param permits the most requests in flight at once
 */
public record ConcurrencyLimit(long permits) implements Bandwidth {

	/** The most permits a limit may have: a store looks at each one when it decides. */
	public static final long MAX_PERMITS = 1000;

	/**
	 * What {@code t} says while no permit is free: requests in flight end at unknown
	 * times.
	 */
	public static final long RETRY_MILLIS = 1000;

	public ConcurrencyLimit {
		if (permits < 1 || permits > MAX_PERMITS) {
			throw new IllegalArgumentException("permits must be between 1 and " + MAX_PERMITS);
		}
	}

	@Override
	public long quota() {
		return this.permits;
	}

	@Override
	public long capacity() {
		return this.permits;
	}

	/** Concurrency has no window; the draft requires {@code w} to be non-zero, so 1. */
	@Override
	public long windowSeconds() {
		return 1;
	}

	@Override
	public String label() {
		return "concurrent";
	}

	@Override
	public String unit() {
		return "concurrent-requests";
	}

}
