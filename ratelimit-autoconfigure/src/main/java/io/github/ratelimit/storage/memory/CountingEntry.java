package io.github.ratelimit.storage.memory;

import java.time.Clock;
import java.util.List;

import io.github.bucket4j.Bucket;
import org.jspecify.annotations.Nullable;

import io.github.ratelimit.policy.Bandwidth;
import io.github.ratelimit.policy.CalendarQuota;
import io.github.ratelimit.policy.CalendarQuota.Window;
import io.github.ratelimit.policy.ConcurrencyLimit;

/**
 * The state of a key whose limit counts quotas or permits besides tokens. A quota's count
 * belongs to the period it was counted in, so it is back to zero at the boundary without
 * any reset; permits are counted here until their holders release them. Every change
 * happens under the entry's lock, so a check takes all of its share or nothing.
 */
final class CountingEntry extends Entry {

	/**
	 * Per quota: the current period as {@code [start, end)} in epoch ms, and its count.
	 */
	private final long[] periodStarts;

	private final long[] periodEnds;

	private final long[] used;

	private long held;

	CountingEntry(@Nullable Bucket bucket, LimitLayout layout) {
		super(bucket, layout);
		this.periodStarts = new long[layout.quotas()];
		this.periodEnds = new long[layout.quotas()];
		this.used = new long[layout.quotas()];
	}

	@Override
	synchronized void take(Attempt attempt, long nowMillis) {
		boolean tokens = takeTokens(attempt);
		boolean had = tokens;
		long cost = attempt.check.cost();
		List<Bandwidth> items = this.layout.bandwidths();
		for (int i = 0; i < attempt.found.length; i++) {
			Bandwidth item = items.get(i);
			if (item instanceof CalendarQuota quota) {
				int q = this.layout.slot(i);
				enterPeriod(q, quota, nowMillis);
				attempt.found[i] = quota.quota() - this.used[q];
				attempt.periodEnds[i] = this.periodEnds[q];
				had &= attempt.found[i] >= cost;
			}
			else if (item instanceof ConcurrencyLimit concurrency) {
				attempt.found[i] = concurrency.permits() - this.held;
				// one permit whatever the cost
				had &= attempt.found[i] >= 1;
			}
		}
		if (had) {
			for (int q = 0; q < this.used.length; q++) {
				this.used[q] += cost;
			}
			if (this.layout.permits() > 0) {
				this.held++;
			}
		}
		else if (tokens) {
			giveBackTokens(attempt);
		}
		attempt.had = had;
		attempt.took = had;
	}

	@Override
	synchronized void peek(Attempt attempt, long nowMillis) {
		boolean had = peekTokens(attempt);
		long cost = attempt.check.cost();
		List<Bandwidth> items = this.layout.bandwidths();
		for (int i = 0; i < attempt.found.length; i++) {
			Bandwidth item = items.get(i);
			if (item instanceof CalendarQuota quota) {
				int q = this.layout.slot(i);
				boolean current = nowMillis < this.periodEnds[q] && nowMillis >= this.periodStarts[q];
				attempt.found[i] = quota.quota() - (current ? this.used[q] : 0);
				attempt.periodEnds[i] = current ? this.periodEnds[q] : quota.window(nowMillis).end();
				had &= attempt.found[i] >= cost;
			}
			else if (item instanceof ConcurrencyLimit concurrency) {
				attempt.found[i] = concurrency.permits() - this.held;
				had &= attempt.found[i] >= 1;
			}
		}
		attempt.had = had;
		attempt.took = false;
	}

	@Override
	synchronized void copyTo(Entry fresh) {
		super.copyTo(fresh);
		if (fresh instanceof CountingEntry counting && counting.used.length == this.used.length) {
			System.arraycopy(this.used, 0, counting.used, 0, this.used.length);
			System.arraycopy(this.periodStarts, 0, counting.periodStarts, 0, this.used.length);
			System.arraycopy(this.periodEnds, 0, counting.periodEnds, 0, this.used.length);
			counting.held = this.held;
		}
	}

	/** Counts from zero when the time is past the period counted so far. */
	private void enterPeriod(int q, CalendarQuota quota, long nowMillis) {
		if (nowMillis < this.periodStarts[q] || nowMillis >= this.periodEnds[q]) {
			Window window = quota.window(nowMillis);
			this.periodStarts[q] = window.start();
			this.periodEnds[q] = window.end();
			this.used[q] = 0;
		}
	}

	@Override
	synchronized void giveBack(Attempt attempt) {
		super.giveBack(attempt);
		List<Bandwidth> items = this.layout.bandwidths();
		for (int i = 0; i < items.size(); i++) {
			// a period that ended since the take counted nothing of it
			if (items.get(i) instanceof CalendarQuota
					&& this.periodEnds[this.layout.slot(i)] == attempt.periodEnds[i]) {
				this.used[this.layout.slot(i)] -= attempt.check.cost();
			}
		}
		if (this.layout.permits() > 0) {
			this.held--;
		}
	}

	/**
	 * Gives back tokens and the count of the current period; permits are their holders'
	 * to release.
	 */
	@Override
	synchronized void refund(long cost, long nowMillis) {
		super.refund(cost, nowMillis);
		for (int q = 0; q < this.used.length; q++) {
			// a period that ended since the take counted nothing of the new one
			if (nowMillis >= this.periodStarts[q] && nowMillis < this.periodEnds[q]) {
				this.used[q] = Math.max(0, this.used[q] - cost);
			}
		}
	}

	/**
	 * Gives back one permit.
	 * @return whether the entry holds no permit any more
	 */
	synchronized boolean release() {
		this.held--;
		return this.held == 0;
	}

	@Override
	long idleNanosAfterCreate(Clock clock) {
		return idleNanos(clock);
	}

	@Override
	long idleNanosAfterRead(Clock clock, long currentNanos) {
		return idleNanos(clock);
	}

	@Override
	long idleNanosAfterUpdate(Clock clock) {
		return idleNanos(clock);
	}

	/**
	 * Read after every change (the take runs inside the map's compute): never while
	 * permits are held, else until the buckets are full and no quota counts anything.
	 */
	private synchronized long idleNanos(Clock clock) {
		if (this.held > 0) {
			return Long.MAX_VALUE;
		}
		long idle = tokensFullNanos();
		long nowMillis = clock.millis();
		for (int q = 0; q < this.used.length; q++) {
			if (this.used[q] > 0 && nowMillis < this.periodEnds[q]) {
				// a count must outlive its period, or the quota would come back early
				idle = Math.max(idle, (this.periodEnds[q] - nowMillis) * 1_000_000L);
			}
		}
		return idle;
	}

	@Override
	synchronized boolean pinned() {
		return this.held > 0;
	}

}
