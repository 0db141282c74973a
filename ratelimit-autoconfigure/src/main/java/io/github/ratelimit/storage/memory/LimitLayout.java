package io.github.ratelimit.storage.memory;

import java.util.List;

import io.github.bucket4j.Bucket;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.ConfigurationBuilder;
import io.github.bucket4j.TimeMeter;
import io.github.bucket4j.local.LocalBucketBuilder;
import org.jspecify.annotations.Nullable;

import io.github.ratelimit.policy.Bandwidth;
import io.github.ratelimit.policy.ConcurrencyLimit;
import io.github.ratelimit.policy.LeakyBucket;
import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.policy.SlidingWindow;
import io.github.ratelimit.policy.TokenBucket;
import io.github.ratelimit.policy.WindowQuota;

/**
 * Where each item of a policy's limit lives in a memory entry: token buckets in one
 * Bucket4j bucket, the counts of quotas and fixed windows, the counters of sliding
 * windows and leaky buckets, and permits in fields of their own. Built once per policy.
 */
final class LimitLayout {

	/**
	 * A sliding window's counters: its window's start, the previous count, the current.
	 */
	static final int SLIDING_COUNTERS = 3;

	/** A leaky bucket's counters: its backlog and when it was that. */
	static final int LEAKY_COUNTERS = 2;

	private final List<Bandwidth> bandwidths;

	/**
	 * Per item: its index among the items of its kind (a token bucket's index in the
	 * Bucket4j state, a window quota's among the quotas), or the offset of its counters
	 * (a sliding window's or a leaky bucket's).
	 */
	private final int[] slots;

	private final int quotas;

	private final int counters;

	private final long permits;

	private final @Nullable BucketConfiguration tokenBuckets;

	private final long idleNanos;

	private final String spec;

	LimitLayout(Policy policy) {
		this.bandwidths = policy.limit().bandwidths();
		this.spec = policy.limit().spec();
		this.slots = new int[this.bandwidths.size()];
		ConfigurationBuilder builder = BucketConfiguration.builder();
		int buckets = 0;
		int quotas = 0;
		int counters = 0;
		long permits = 0;
		long idleMillis = 0;
		for (int i = 0; i < this.slots.length; i++) {
			Bandwidth item = this.bandwidths.get(i);
			if (item instanceof TokenBucket bucket) {
				this.slots[i] = buckets++;
				builder.addLimit((limit) -> limit.capacity(bucket.capacity())
					.refillGreedy(bucket.refillTokens(), bucket.period()));
				idleMillis = Math.max(idleMillis, bucket.millisToRefill(bucket.capacity()));
			}
			else if (item instanceof WindowQuota) {
				this.slots[i] = quotas++;
			}
			else if (item instanceof SlidingWindow) {
				this.slots[i] = counters;
				counters += SLIDING_COUNTERS;
			}
			else if (item instanceof LeakyBucket) {
				this.slots[i] = counters;
				counters += LEAKY_COUNTERS;
			}
			else if (item instanceof ConcurrencyLimit concurrency) {
				permits = concurrency.permits();
			}
		}
		this.quotas = quotas;
		this.counters = counters;
		this.permits = permits;
		this.tokenBuckets = (buckets > 0) ? builder.build() : null;
		// an emptied bucket is full again after this: forgetting it then changes nothing
		this.idleNanos = Math.max(1, idleMillis) * 1_000_000L;
	}

	/**
	 * The Bucket4j configuration of the token buckets, {@code null} when the limit has
	 * none.
	 */
	@Nullable BucketConfiguration tokenBuckets() {
		return this.tokenBuckets;
	}

	/**
	 * Whether this layout is of the same limit as {@code other} (two policies may share
	 * one limit).
	 */
	boolean sameLimit(LimitLayout other) {
		return other == this || other.spec.equals(this.spec);
	}

	List<Bandwidth> bandwidths() {
		return this.bandwidths;
	}

	/** The index of item {@code bandwidth} among the items of its kind. */
	int slot(int bandwidth) {
		return this.slots[bandwidth];
	}

	/** The number of window quotas (calendar quotas and fixed windows). */
	int quotas() {
		return this.quotas;
	}

	/** The number of counters of sliding windows and leaky buckets. */
	int counters() {
		return this.counters;
	}

	/**
	 * Whether the limit counts more than tokens: quotas, windows, backlogs or permits.
	 */
	boolean counts() {
		return this.quotas > 0 || this.counters > 0 || this.permits > 0;
	}

	/** The permits of the limit's concurrency cap, 0 when it has none. */
	long permits() {
		return this.permits;
	}

	/** How long emptied token buckets take to fill up again (at least 1 ms). */
	long idleNanos() {
		return this.idleNanos;
	}

	/**
	 * A new Bucket4j bucket of the token buckets, full; {@code null} when the limit has
	 * none.
	 */
	@Nullable Bucket newBucket(TimeMeter timeMeter) {
		if (this.tokenBuckets == null) {
			return null;
		}
		LocalBucketBuilder builder = Bucket.builder().withCustomTimePrecision(timeMeter);
		for (io.github.bucket4j.Bandwidth bandwidth : this.tokenBuckets.getBandwidths()) {
			builder.addLimit(bandwidth);
		}
		return builder.build();
	}

}
