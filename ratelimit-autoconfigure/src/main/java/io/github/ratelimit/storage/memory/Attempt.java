package io.github.ratelimit.storage.memory;

import java.util.concurrent.TimeUnit;

import io.github.bucket4j.UninterruptibleBlockingStrategy;
import org.jspecify.annotations.Nullable;

import io.github.ratelimit.policy.LeakyBucket;
import io.github.ratelimit.policy.SlidingWindow;
import io.github.ratelimit.storage.LimitCheck;

/**
 * One check tried against its entry: what each item held before, and whether the check's
 * share was taken. It is the blocking strategy of Bucket4j's reservation too: instead of
 * sleeping it records how long the caller must wait, which makes the reservation one
 * atomic step that never blocks.
 */
final class Attempt implements UninterruptibleBlockingStrategy {

	private static final long[] NO_QUOTAS = {};

	private static final SlidingWindow.Counts[] NO_COUNTS = {};

	private static final LeakyBucket.Backlog[] NO_BACKLOGS = {};

	final LimitCheck check;

	final Entry entry;

	/**
	 * Per item of the limit, before this attempt: tokens (negative while a bucket is in
	 * debt for waiting requests), requests left in the quota's period or the window,
	 * whether a leaky bucket's slot is due (1 or 0), free permits.
	 */
	final long[] found;

	/**
	 * Per item: the end (epoch ms) of a quota's current period; empty when the limit has
	 * no quota.
	 */
	final long[] periodEnds;

	/**
	 * Per item: a sliding window's counts as found, moved to now; empty when the limit
	 * has no counters.
	 */
	final SlidingWindow.@Nullable Counts[] counts;

	/**
	 * Per item: a leaky bucket's backlog as found, drained to now; empty when the limit
	 * has no counters.
	 */
	final LeakyBucket.@Nullable Backlog[] backlogs;

	/**
	 * Whether every item had the check's share, token buckets within the check's wait.
	 */
	boolean had;

	/** Whether the share was taken and is still held. */
	boolean took;

	/** How long the caller must wait for the tokens reserved, 0 when none were. */
	long waitNanos;

	Attempt(LimitCheck check, Entry entry) {
		this.check = check;
		this.entry = entry;
		int items = entry.layout.bandwidths().size();
		this.found = new long[items];
		this.periodEnds = (entry.layout.quotas() > 0) ? new long[items] : NO_QUOTAS;
		boolean counters = entry.layout.counters() > 0;
		this.counts = counters ? new SlidingWindow.Counts[items] : NO_COUNTS;
		this.backlogs = counters ? new LeakyBucket.Backlog[items] : NO_BACKLOGS;
	}

	/** The most a refill may be waited for: only enforced checks wait. */
	long maxWaitNanos() {
		return TimeUnit.MILLISECONDS.toNanos(maxWaitMillis());
	}

	/** The most a refill or a slot may be waited for: only enforced checks wait. */
	long maxWaitMillis() {
		return this.check.enforced() ? this.check.maxWaitMillis() : 0;
	}

	/** Whether the attempt holds one of its entry's permits. */
	boolean holdsPermit() {
		return this.took && this.entry.layout.permits() > 0;
	}

	@Override
	public void parkUninterruptibly(long nanos) {
		this.waitNanos = nanos;
	}

}
