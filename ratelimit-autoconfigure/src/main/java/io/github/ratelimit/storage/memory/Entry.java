package io.github.ratelimit.storage.memory;

import java.time.Clock;
import java.util.List;

import io.github.bucket4j.Bucket;
import io.github.bucket4j.BucketState;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.TokensInheritanceStrategy;
import io.github.bucket4j.VerboseResult;
import org.jspecify.annotations.Nullable;

import io.github.ratelimit.policy.Bandwidth;
import io.github.ratelimit.policy.TokenBucket;

/**
 * The state of one key: a Bucket4j bucket for the limit's token buckets. Limits that
 * count quotas or permits get a {@link CountingEntry}; the rest stay this small, since
 * most keys are plain buckets. The bucket does not synchronize
 * ({@link LimitLayout#newBucket}): every use of it holds this entry's monitor.
 */
class Entry {

	/**
	 * How much an expiry must move for Caffeine to move it on a read (its
	 * {@code EXPIRE_TOLERANCE}, 3.2): a read that would move it less leaves it early.
	 */
	static final long READ_EXPIRY_TOLERANCE_NANOS = 1_000_000_000L;

	/** {@link #recordedNanos} when the map must record the next read. */
	static final long RECORD_NEXT_READ = Long.MIN_VALUE;

	final @Nullable Bucket bucket;

	volatile LimitLayout layout;

	/**
	 * When the map last recorded a read of this entry (its ticker's nanos): reads in
	 * between skip the map's bookkeeping ({@link BucketPartitions#read}). Racy on
	 * purpose: a lost write only records one read more.
	 */
	long recordedNanos;

	Entry(@Nullable Bucket bucket, LimitLayout layout) {
		this.bucket = bucket;
		this.layout = layout;
	}

	/**
	 * Takes on another limit of the same shape (a changed limit or an override): the
	 * token buckets keep the tokens they hold, at most the new capacity, and refill at
	 * the new rate; counts stay.
	 */
	synchronized void adopt(LimitLayout other) {
		if (this.bucket != null && other.tokenBuckets() != null) {
			this.bucket.replaceConfiguration(other.tokenBuckets(), TokensInheritanceStrategy.AS_IS);
		}
		this.layout = other;
	}

	/**
	 * Tries to take the check's share, all of it or nothing, and records what was found.
	 */
	synchronized void take(Attempt attempt, long nowMillis) {
		attempt.had = takeTokens(attempt);
		attempt.took = attempt.had;
	}

	/** Records what each item holds for the check's cost, taking nothing. */
	synchronized void peek(Attempt attempt, long nowMillis) {
		attempt.had = peekTokens(attempt);
		attempt.took = false;
	}

	/**
	 * Records what the token buckets hold; answers whether they hold the check's cost.
	 */
	final boolean peekTokens(Attempt attempt) {
		Bucket bucket = this.bucket;
		if (bucket == null) {
			return true;
		}
		BucketState state = bucket.asVerbose().getAvailableTokens().getState();
		List<Bandwidth> items = this.layout.bandwidths();
		boolean had = true;
		for (int i = 0; i < attempt.found.length; i++) {
			if (items.get(i) instanceof TokenBucket) {
				attempt.found[i] = state.getCurrentSize(this.layout.slot(i));
				had &= attempt.found[i] >= attempt.check.cost();
			}
		}
		return had;
	}

	/**
	 * Copies this entry's state into a fresh entry of the same shape (an inspection of an
	 * older limit).
	 */
	synchronized void copyTo(Entry fresh) {
		if (this.bucket != null && fresh.bucket != null) {
			long missing = fresh.bucket.getAvailableTokens() - this.bucket.getAvailableTokens();
			if (missing > 0) {
				fresh.bucket.consumeIgnoringRateLimits(missing);
			}
		}
	}

	/** Gives back what {@code attempt} took (a later check refused the request). */
	synchronized void giveBack(Attempt attempt) {
		giveBackTokens(attempt);
		attempt.took = false;
	}

	/**
	 * Gives back a cost an admitted request took earlier (its response was not one the
	 * limit counts): the token buckets get it back up to their capacity.
	 */
	synchronized void refund(long cost, long nowMillis) {
		if (this.bucket != null) {
			this.bucket.addTokens(cost);
		}
	}

	/**
	 * Takes the cost from the token buckets, reserving it within the check's wait, and
	 * records each bucket's tokens as found.
	 * @return whether the tokens were taken
	 */
	final boolean takeTokens(Attempt attempt) {
		Bucket bucket = this.bucket;
		if (bucket == null) {
			return true;
		}
		long cost = attempt.check.cost();
		long maxWaitNanos = attempt.maxWaitNanos();
		int only = this.layout.onlyTokenBucketItem();
		if (maxWaitNanos == 0 && only >= 0) {
			return takeFromOne(bucket, attempt, cost, only);
		}
		VerboseResult<Boolean> result = (maxWaitNanos > 0)
				? bucket.asBlocking().asVerbose().tryConsumeUninterruptibly(cost, maxWaitNanos, attempt)
				: bucket.asVerbose().tryConsume(cost);
		boolean took = result.getValue();
		BucketState state = result.getState();
		List<Bandwidth> items = this.layout.bandwidths();
		boolean spent = !took;
		for (int i = 0; i < attempt.found.length; i++) {
			if (items.get(i) instanceof TokenBucket tokens) {
				long left = state.getCurrentSize(this.layout.slot(i));
				attempt.found[i] = left + (took ? cost : 0);
				spent |= pastHalf(tokens, left);
			}
		}
		if (spent) {
			recordEveryRead();
		}
		return took;
	}

	// most limits: one bucket, no wait. Its probe allocates at most itself (a verbose
	// take copies the state)
	private boolean takeFromOne(Bucket bucket, Attempt attempt, long cost, int item) {
		ConsumptionProbe probe = bucket.tryConsumeAndReturnRemaining(cost);
		boolean took = probe.isConsumed();
		long remaining = probe.getRemainingTokens();
		// the probe reports no fewer than 0: a bucket in debt (a wait reserved its
		// tokens) is read again, and is short all the same
		long left = (took || remaining > 0) ? remaining : Math.min(cost - 1, bucket.getAvailableTokens());
		attempt.found[item] = left + (took ? cost : 0);
		if (!took || pastHalf((TokenBucket) this.layout.bandwidths().get(item), left)) {
			recordEveryRead();
		}
		return took;
	}

	// fewer than half left, rounded up: a bucket of one token once it is taken
	private static boolean pastHalf(TokenBucket tokens, long left) {
		return left < tokens.capacity() - tokens.capacity() / 2;
	}

	// a bucket past half spent is what the size bound must not forget (it would come
	// back full): every read of it is recorded, which keeps it ahead of keys seen once
	private void recordEveryRead() {
		this.recordedNanos = RECORD_NEXT_READ;
	}

	final void giveBackTokens(Attempt attempt) {
		if (this.bucket != null) {
			this.bucket.addTokens(attempt.check.cost());
		}
		attempt.waitNanos = 0;
	}

	/**
	 * How long a new entry may stay unused: the time its buckets take to fill up from
	 * empty, so whatever a request takes, forgetting the entry after that changes
	 * nothing; plus the time takes may go unrecorded
	 * ({@link LimitLayout#readSlackNanos()}).
	 */
	long idleNanosAfterCreate(Clock clock) {
		return this.layout.idleNanos() + this.layout.readSlackNanos();
	}

	/**
	 * A recorded read before a take: the time from empty again and the time the next
	 * takes may go unrecorded, unless a reservation asked for longer; plus Caffeine's
	 * tolerance, since it leaves an expiry that would move by less alone.
	 */
	long idleNanosAfterRead(Clock clock, long currentNanos) {
		return Math.max(this.layout.idleNanos() + this.layout.readSlackNanos() + READ_EXPIRY_TOLERANCE_NANOS,
				currentNanos);
	}

	/**
	 * Updated after a reservation: a bucket in debt takes longer than that to fill up, as
	 * its state says.
	 */
	long idleNanosAfterUpdate(Clock clock) {
		// exact, as the state says: the next read is recorded and pushes the expiry out
		// again for the takes after it
		this.recordedNanos = RECORD_NEXT_READ;
		return tokensFullNanos();
	}

	/**
	 * How long until the token buckets are full, read from the bucket (which may be in
	 * debt).
	 */
	final synchronized long tokensFullNanos() {
		Bucket bucket = this.bucket;
		if (bucket == null) {
			return 1;
		}
		BucketState state = bucket.asVerbose().getAvailableTokens().getState();
		List<Bandwidth> items = this.layout.bandwidths();
		long millis = 1;
		for (int i = 0; i < items.size(); i++) {
			if (items.get(i) instanceof TokenBucket tokens) {
				millis = Math.max(millis,
						tokens.millisToRefill(tokens.capacity() - state.getCurrentSize(this.layout.slot(i))));
			}
		}
		return millis * 1_000_000L;
	}

	/** Whether the size bound must not evict the entry (it holds permits). */
	boolean pinned() {
		return false;
	}

}
