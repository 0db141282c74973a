package io.github.ratelimit.policy;

import java.time.Duration;

/**
 * One token bucket bandwidth: {@code capacity} tokens, refilled greedily at
 * {@code refillTokens} per {@code period}. {@code 100/1m} is capacity 100 refilled 100
 * per minute; {@code 100/1m burst 150} has capacity 150 refilled 100 per minute.
 *
 * @param capacity the most tokens the bucket holds
 * @param refillTokens tokens added over one period
 * @param period the refill period
 * @param label the period as written in configuration, normalised ({@code 1m},
 * {@code 15m}, {@code 1h})
 */
public record TokenBucket(long capacity, long refillTokens, Duration period, String label) implements Bandwidth {

	/**
	 * The most capacity x period (in ms) a bandwidth may have: stores count tokens in
	 * token-milliseconds, exact up to 2^53 (the integers a double holds exactly, as in a
	 * Redis Lua script).
	 */
	static final long MAX_TOKEN_MILLIS = 1L << 53;

	public TokenBucket {
		if (capacity < 1 || refillTokens < 1) {
			throw new IllegalArgumentException("capacity and refill must be positive");
		}
		if (period.isNegative() || period.isZero()) {
			throw new IllegalArgumentException("period must be positive");
		}
		if (capacity > MAX_TOKEN_MILLIS / Math.max(1, period.toMillis())) {
			throw new IllegalArgumentException("capacity x period must stay below 2^53 token-milliseconds");
		}
	}

	@Override
	public long quota() {
		return this.refillTokens;
	}

	@Override
	public long windowSeconds() {
		return Math.max(1, ceilDiv(this.period.toMillis(), 1000));
	}

	/**
	 * Milliseconds until {@code tokens} more tokens have been refilled, rounded up; 0
	 * when {@code tokens <= 0}.
	 */
	public long millisToRefill(long tokens) {
		if (tokens <= 0) {
			return 0;
		}
		// tokens * period / refill, in exact integer arithmetic (no overflow for sane
		// limits)
		return ceilDiv(Math.multiplyExact(tokens, this.period.toMillis()), this.refillTokens);
	}

	private static long ceilDiv(long x, long y) {
		return -Math.floorDiv(-x, y);
	}

}
