package io.github.ratelimit.core.status;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

import io.github.ratelimit.policy.Bandwidth;
import io.github.ratelimit.policy.CalendarQuota;
import io.github.ratelimit.policy.ConcurrencyLimit;
import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.FixedWindow;
import io.github.ratelimit.policy.LeakyBucket;
import io.github.ratelimit.policy.SlidingWindow;
import io.github.ratelimit.policy.TokenBucket;

/**
 * One bandwidth of one limit that applies to a caller, as the store holds it now: what a
 * caller's status reports per limit.
 *
 * @param name the bandwidth's name, as the {@code RateLimit-Policy} header names it
 * ({@code premium-user-default})
 * @param scope whose budget it is: the caller's user, org, token (API key) or client
 * address, or the service's (shared with every other caller)
 * @param bandwidth the bandwidth: its kind, quota and window
 * @param remaining what is left (free permits for a concurrency cap); never below 0
 * @param resetMillis how long until the budget is whole again: a token bucket full, a
 * quota's period or a fixed window over (0 while unused), nothing counted in a sliding
 * window, no request queued in a leaky bucket; 0 for a concurrency cap
 * @param period the current period of a calendar quota or window of a fixed window,
 * {@code null} for other kinds
 * @param key the name of the key whose value it is counted per
 * ({@code ratelimit.keys.<key>}), {@code null} for the other scopes
 */
public record Budget(String name, Dimension scope, Bandwidth bandwidth, long remaining, long resetMillis,
		CalendarQuota.@Nullable Window period, @Nullable String key) {

	/** A budget of a user, org, token, client address or the service. */
	public Budget(String name, Dimension scope, Bandwidth bandwidth, long remaining, long resetMillis,
			CalendarQuota.@Nullable Window period) {
		this(name, scope, bandwidth, remaining, resetMillis, period, null);
	}

	/**
	 * Whose budget it is, as responses name scopes: {@code user}, {@code org},
	 * {@code token}, {@code ip}, {@code service}, or the key's name.
	 */
	public String scopeName() {
		return (this.key != null) ? this.key : this.scope.key();
	}

	/** What kind of limit it is, as the status names it. */
	public Kind kind() {
		Bandwidth item = this.bandwidth;
		if (item instanceof CalendarQuota) {
			return Kind.QUOTA;
		}
		if (item instanceof FixedWindow) {
			return Kind.FIXED_WINDOW;
		}
		if (item instanceof SlidingWindow) {
			return Kind.SLIDING_WINDOW;
		}
		if (item instanceof LeakyBucket) {
			return Kind.LEAKY_BUCKET;
		}
		return (item instanceof ConcurrencyLimit) ? Kind.CONCURRENCY : Kind.RATE;
	}

	/**
	 * The bandwidth as a limit string ({@code 100/1m}, {@code 100/1m burst 150},
	 * {@code 100/1m fixed}, {@code 100/1m sliding}, {@code 10/1s leaky},
	 * {@code 10000/month}, {@code 2 concurrent}).
	 */
	public String limit() {
		Bandwidth item = this.bandwidth;
		if (item instanceof ConcurrencyLimit concurrency) {
			return concurrency.permits() + " concurrent";
		}
		String limit = item.quota() + "/" + item.label();
		return switch (kind()) {
			case FIXED_WINDOW -> limit + " fixed";
			case SLIDING_WINDOW -> limit + " sliding";
			case LEAKY_BUCKET -> limit + " leaky";
			default -> (item.capacity() != item.quota()) ? limit + " burst " + item.capacity() : limit;
		};
	}

	/** What a window grants: the refill of a token bucket, a quota, the permits. */
	public long quota() {
		return this.bandwidth.quota();
	}

	/**
	 * The most a token bucket holds when it exceeds the quota ({@code burst}), else the
	 * quota.
	 */
	public long capacity() {
		return this.bandwidth.capacity();
	}

	/** Whether a token bucket may hold more than its quota. */
	public boolean bursts() {
		return this.bandwidth instanceof TokenBucket && capacity() != quota();
	}

	/** Requests in flight that hold a permit of a concurrency cap; 0 for other kinds. */
	public long inUse() {
		return (this.bandwidth instanceof ConcurrencyLimit) ? Math.max(0, quota() - this.remaining) : 0;
	}

	/** Whole seconds until the budget is whole again, rounded up. */
	public long resetSeconds() {
		return (this.resetMillis + 999) / 1000;
	}

	/**
	 * When the budget is whole again, rounded up to a whole second: a used quota at the
	 * end of its period (which the store's clock and this one may see a few milliseconds
	 * apart).
	 * @param readAt when the store was read
	 * @return the instant
	 */
	public Instant resetAt(Instant readAt) {
		if (this.period != null && this.resetMillis > 0) {
			return Instant.ofEpochMilli(this.period.end());
		}
		return Instant.ofEpochSecond((readAt.toEpochMilli() + this.resetMillis + 999) / 1000);
	}

	/** The kinds of limits. */
	public enum Kind {

		/** A token bucket ({@code 100/1m}). */
		RATE,

		/** A calendar quota ({@code 10000/month}). */
		QUOTA,

		/** A cap on requests in flight ({@code 2 concurrent}). */
		CONCURRENCY,

		/**
		 * A fixed window ({@code 100/1m fixed}): all of it back at the window's end.
		 */
		FIXED_WINDOW,

		/**
		 * A sliding window ({@code 100/1m sliding}): requests free up as earlier ones
		 * leave the window.
		 */
		SLIDING_WINDOW,

		/**
		 * A smoothing leaky bucket ({@code 10/1s leaky}): one request per slot.
		 */
		LEAKY_BUCKET

	}

}
