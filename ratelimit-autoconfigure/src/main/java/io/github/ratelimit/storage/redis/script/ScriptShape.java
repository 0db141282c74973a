package io.github.ratelimit.storage.redis.script;

import java.util.List;

import io.github.ratelimit.policy.Bandwidth;
import io.github.ratelimit.policy.CalendarQuota;
import io.github.ratelimit.policy.ConcurrencyLimit;
import io.github.ratelimit.policy.FixedWindow;
import io.github.ratelimit.policy.LeakyBucket;
import io.github.ratelimit.policy.Limit;
import io.github.ratelimit.policy.SlidingWindow;
import io.github.ratelimit.policy.TokenBucket;
import io.github.ratelimit.policy.WindowQuota;

/**
 * The script arguments of one limit's items (the number of items, then each item's kind
 * and numbers), encoded once. The boundaries of a calendar quota's period move with time
 * (and the zone's rules): they are filled in per call from a window kept until the wall
 * clock leaves it. A fixed window, a sliding window and a leaky bucket send their amount
 * and period: the script aligns and drains by its own clock, so instances whose clocks
 * differ still count in one window (a fixed window is then counted as a quota is).
 */
final class ScriptShape {

	private static final byte[] TOKEN_BUCKET = TokenBucketScript.bytes("b");

	private static final byte[] QUOTA = TokenBucketScript.bytes("q");

	private static final byte[] CONCURRENCY = TokenBucketScript.bytes("c");

	private static final byte[] SLIDING_WINDOW = TokenBucketScript.bytes("s");

	private static final byte[] LEAKY_BUCKET = TokenBucketScript.bytes("l");

	private static final byte[] FIXED_WINDOW = TokenBucketScript.bytes("w");

	/**
	 * The arguments, with three empty places after each quota's count for its boundaries.
	 */
	private final byte[][] arguments;

	/** Where each quota's boundaries go in {@link #arguments}. */
	private final int[] quotaAt;

	private final WindowQuota[] quotas;

	/**
	 * The boundaries last sent per quota: start, end, next end as numbers and as
	 * arguments.
	 */
	private final Boundaries[] boundaries;

	private final long permits;

	ScriptShape(Limit limit) {
		List<Bandwidth> items = limit.bandwidths();
		int size = 1;
		int quotaCount = 0;
		for (Bandwidth item : items) {
			size += (item instanceof TokenBucket) ? 4 : (item instanceof CalendarQuota) ? 5 : 3;
			quotaCount += (item instanceof CalendarQuota) ? 1 : 0;
		}
		this.arguments = new byte[size][];
		this.quotaAt = new int[quotaCount];
		this.quotas = new WindowQuota[quotaCount];
		this.boundaries = new Boundaries[quotaCount];
		long concurrency = 0;
		int a = 0;
		int q = 0;
		this.arguments[a++] = TokenBucketScript.number(items.size());
		for (Bandwidth item : items) {
			if (item instanceof TokenBucket bucket) {
				this.arguments[a++] = TOKEN_BUCKET;
				this.arguments[a++] = TokenBucketScript.number(bucket.capacity());
				this.arguments[a++] = TokenBucketScript.number(bucket.refillTokens());
				this.arguments[a++] = TokenBucketScript.number(bucket.period().toMillis());
			}
			else if (item instanceof FixedWindow window) {
				this.arguments[a++] = FIXED_WINDOW;
				this.arguments[a++] = TokenBucketScript.number(window.quota());
				this.arguments[a++] = TokenBucketScript.number(window.period().toMillis());
			}
			else if (item instanceof CalendarQuota quota) {
				this.arguments[a++] = QUOTA;
				this.arguments[a++] = TokenBucketScript.number(quota.quota());
				this.quotaAt[q] = a;
				this.quotas[q++] = quota;
				a += 3;
			}
			else if (item instanceof SlidingWindow window) {
				this.arguments[a++] = SLIDING_WINDOW;
				this.arguments[a++] = TokenBucketScript.number(window.quota());
				this.arguments[a++] = TokenBucketScript.number(window.periodMillis());
			}
			else if (item instanceof LeakyBucket leaky) {
				this.arguments[a++] = LEAKY_BUCKET;
				this.arguments[a++] = TokenBucketScript.number(leaky.rate());
				this.arguments[a++] = TokenBucketScript.number(leaky.periodMillis());
			}
			else {
				ConcurrencyLimit cap = (ConcurrencyLimit) item;
				this.arguments[a++] = CONCURRENCY;
				this.arguments[a++] = TokenBucketScript.number(cap.permits());
				this.arguments[a++] = TokenBucketScript.number(ConcurrencyLimit.RETRY_MILLIS);
				concurrency = cap.permits();
			}
		}
		this.permits = concurrency;
	}

	/** How many arguments {@link #write} writes. */
	int size() {
		return this.arguments.length;
	}

	/** The permits of the limit's concurrency cap, 0 when it has none. */
	long permits() {
		return this.permits;
	}

	/**
	 * Writes the arguments at {@code at}.
	 * @param wallMillis this JVM's time, whose periods calendar quotas send
	 * @return the index after them
	 */
	int write(byte[][] target, int at, long wallMillis) {
		System.arraycopy(this.arguments, 0, target, at, this.arguments.length);
		for (int q = 0; q < this.quotas.length; q++) {
			Boundaries window = this.boundaries[q];
			if (window == null || wallMillis < window.start() || wallMillis >= window.end()) {
				// a benign race: two threads may compute the same window
				window = Boundaries.of(this.quotas[q].window(wallMillis));
				this.boundaries[q] = window;
			}
			int b = at + this.quotaAt[q];
			target[b] = window.arguments()[0];
			target[b + 1] = window.arguments()[1];
			target[b + 2] = window.arguments()[2];
		}
		return at + this.arguments.length;
	}

	private record Boundaries(long start, long end, byte[][] arguments) {

		static Boundaries of(CalendarQuota.Window window) {
			return new Boundaries(window.start(), window.end(), new byte[][] { TokenBucketScript.number(window.start()),
					TokenBucketScript.number(window.end()), TokenBucketScript.number(window.nextEnd()) });
		}

	}

}
