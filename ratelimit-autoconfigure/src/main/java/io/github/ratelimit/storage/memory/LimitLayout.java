package io.github.ratelimit.storage.memory;

import java.util.List;

import io.github.bucket4j.Bucket;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.ConfigurationBuilder;
import io.github.bucket4j.TimeMeter;
import io.github.bucket4j.local.LocalBucketBuilder;
import io.github.bucket4j.local.SynchronizationStrategy;
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
 * Bucket4j bucket, the counters of quotas and fixed windows, sliding windows and leaky
 * buckets in one array, permits in a field of their own. Built once per policy.
 */
final class LimitLayout {

	/** A window quota's counters: its window's start and end, its count. */
	static final int QUOTA_COUNTERS = 3;

	/**
	 * A sliding window's counters: its window's start, the previous count, the current.
	 */
	static final int SLIDING_COUNTERS = 3;

	/** A leaky bucket's counters: its backlog and when it was that. */
	static final int LEAKY_COUNTERS = 2;

	/**
	 * The most an entry's reads go unrecorded: Caffeine moves an expiry on a read only
	 * when it changes by more than this anyway.
	 */
	static final long MAX_READ_SLACK_NANOS = Entry.READ_EXPIRY_TOLERANCE_NANOS;

	private final List<Bandwidth> bandwidths;

	/**
	 * Per item: a token bucket's index in the Bucket4j state, or the offset of the item's
	 * counters in its entry (a window quota's, a sliding window's, a leaky bucket's): one
	 * array for all of them keeps an entry small.
	 */
	private final int[] slots;

	private final int quotas;

	private final int counters;

	private final boolean slidingOrLeaky;

	private final long permits;

	private final @Nullable BucketConfiguration tokenBuckets;

	private final int onlyTokenBucketItem;

	private final long idleNanos;

	private final long readSlackNanos;

	private final String spec;

	LimitLayout(Policy policy) {
		this.bandwidths = policy.limit().bandwidths();
		this.spec = policy.limit().spec();
		this.slots = new int[this.bandwidths.size()];
		ConfigurationBuilder builder = BucketConfiguration.builder();
		int buckets = 0;
		int tokenBucketItem = -1;
		int quotas = 0;
		int counters = 0;
		long permits = 0;
		long idleMillis = 0;
		for (int i = 0; i < this.slots.length; i++) {
			Bandwidth item = this.bandwidths.get(i);
			if (item instanceof TokenBucket bucket) {
				this.slots[i] = buckets++;
				tokenBucketItem = i;
				builder.addLimit((limit) -> limit.capacity(bucket.capacity())
					.refillGreedy(bucket.refillTokens(), bucket.period()));
				idleMillis = Math.max(idleMillis, bucket.millisToRefill(bucket.capacity()));
			}
			else if (item instanceof WindowQuota) {
				quotas++;
				this.slots[i] = counters;
				counters += QUOTA_COUNTERS;
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
		this.slidingOrLeaky = counters > quotas * QUOTA_COUNTERS;
		this.permits = permits;
		this.tokenBuckets = (buckets > 0) ? builder.build() : null;
		this.onlyTokenBucketItem = (buckets == 1) ? tokenBucketItem : -1;
		// an emptied bucket is full again after this: forgetting it then changes nothing
		this.idleNanos = Math.max(1, idleMillis) * 1_000_000L;
		this.readSlackNanos = Math.min(MAX_READ_SLACK_NANOS, this.idleNanos / 4);
	}

	/**
	 * The Bucket4j configuration of the token buckets, {@code null} when the limit has
	 * none.
	 */
	@Nullable BucketConfiguration tokenBuckets() {
		return this.tokenBuckets;
	}

	/**
	 * The item of the limit's token bucket when it has exactly one (most limits), else
	 * -1.
	 */
	int onlyTokenBucketItem() {
		return this.onlyTokenBucketItem;
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

	/**
	 * The index of token bucket {@code bandwidth} in the Bucket4j state, or the offset of
	 * the counters of another item.
	 */
	int slot(int bandwidth) {
		return this.slots[bandwidth];
	}

	/** The number of window quotas (calendar quotas and fixed windows). */
	int quotas() {
		return this.quotas;
	}

	/** The number of counters of window quotas, sliding windows and leaky buckets. */
	int counters() {
		return this.counters;
	}

	/** Whether the limit has a sliding window or a leaky bucket. */
	boolean slidingOrLeaky() {
		return this.slidingOrLeaky;
	}

	/**
	 * Whether the limit counts more than tokens: quotas, windows, backlogs or permits.
	 */
	boolean counts() {
		return this.counters > 0 || this.permits > 0;
	}

	/** The permits of the limit's concurrency cap, 0 when it has none. */
	long permits() {
		return this.permits;
	}

	/**
	 * How long reads of an entry may go unrecorded in its map (a quarter of
	 * {@link #idleNanos()}, at most a second): its idle expiry is pushed out by this much
	 * more, so a take between two recorded reads never outlives it.
	 */
	long readSlackNanos() {
		return this.readSlackNanos;
	}

	/** How long emptied token buckets take to fill up again (at least 1 ms). */
	long idleNanos() {
		return this.idleNanos;
	}

	/**
	 * A new Bucket4j bucket of the token buckets, full; {@code null} when the limit has
	 * none. It does not synchronize: its {@link Entry} guards it with its own monitor,
	 * which it holds for more than the bucket anyway, and a bucket changed in place
	 * allocates nothing per take (a lock-free one copies its state twice).
	 */
	@Nullable Bucket newBucket(TimeMeter timeMeter) {
		if (this.tokenBuckets == null) {
			return null;
		}
		LocalBucketBuilder builder = Bucket.builder()
			.withCustomTimePrecision(timeMeter)
			.withSynchronizationStrategy(SynchronizationStrategy.NONE);
		for (io.github.bucket4j.Bandwidth bandwidth : this.tokenBuckets.getBandwidths()) {
			builder.addLimit(bandwidth);
		}
		return builder.build();
	}

}
