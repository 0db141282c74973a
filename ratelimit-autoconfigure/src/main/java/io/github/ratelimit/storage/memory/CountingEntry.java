package io.github.ratelimit.storage.memory;

import java.time.Clock;
import java.util.List;

import io.github.bucket4j.Bucket;
import org.jspecify.annotations.Nullable;

import io.github.ratelimit.policy.Bandwidth;
import io.github.ratelimit.policy.CalendarQuota.Window;
import io.github.ratelimit.policy.ConcurrencyLimit;
import io.github.ratelimit.policy.LeakyBucket;
import io.github.ratelimit.policy.LeakyBucket.Backlog;
import io.github.ratelimit.policy.SlidingWindow;
import io.github.ratelimit.policy.SlidingWindow.Counts;
import io.github.ratelimit.policy.WindowQuota;

/**
 * The state of a key whose limit counts more than tokens: quotas and fixed windows,
 * sliding windows, leaky buckets, permits. A window quota's count belongs to the window
 * it was counted in, so it is back to zero at the boundary without any reset; a sliding
 * window keeps two counts and a leaky bucket its backlog, with the arithmetic of
 * {@link Counts} and {@link Backlog}; permits are counted here until their holders
 * release them. Every change happens under the entry's lock, so a check takes all of its
 * share or nothing.
 */
final class CountingEntry extends Entry {

	private static final long[] NONE = {};

	/**
	 * Per window quota: the current window as {@code [start, end)} in epoch ms, and its
	 * count.
	 */
	private final long[] periodStarts;

	private final long[] periodEnds;

	private final long[] used;

	/**
	 * The counters of sliding windows (start, previous, current) and leaky buckets
	 * (backlog, when), at the offsets the layout gives.
	 */
	private final long[] counters;

	private long held;

	CountingEntry(@Nullable Bucket bucket, LimitLayout layout) {
		super(bucket, layout);
		this.periodStarts = newArray(layout.quotas());
		this.periodEnds = newArray(layout.quotas());
		this.used = newArray(layout.quotas());
		this.counters = newArray(layout.counters());
	}

	private static long[] newArray(int length) {
		return (length > 0) ? new long[length] : NONE;
	}

	@Override
	synchronized void take(Attempt attempt, long nowMillis) {
		boolean tokens = takeTokens(attempt);
		boolean had = tokens;
		long cost = attempt.check.cost();
		long slotWaitMillis = 0;
		List<Bandwidth> items = this.layout.bandwidths();
		for (int i = 0; i < attempt.found.length; i++) {
			Bandwidth item = items.get(i);
			if (item instanceof WindowQuota quota) {
				int q = this.layout.slot(i);
				enterPeriod(q, quota, nowMillis);
				attempt.found[i] = quota.quota() - this.used[q];
				attempt.periodEnds[i] = this.periodEnds[q];
				had &= attempt.found[i] >= cost;
			}
			else if (item instanceof SlidingWindow window) {
				Counts counts = counts(i).at(window, nowMillis);
				attempt.counts[i] = counts;
				attempt.found[i] = counts.remaining(window, nowMillis);
				had &= counts.fits(window, cost, nowMillis);
			}
			else if (item instanceof LeakyBucket leaky) {
				Backlog backlog = backlog(i).at(leaky, nowMillis);
				attempt.backlogs[i] = backlog;
				attempt.found[i] = backlog.remaining();
				long due = backlog.millisUntilDue(leaky);
				// the slot is due, or the request may wait for it
				had &= due <= attempt.maxWaitMillis();
				slotWaitMillis = Math.max(slotWaitMillis, due);
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
			for (int i = 0; i < attempt.counts.length; i++) {
				Bandwidth item = items.get(i);
				if (item instanceof SlidingWindow) {
					store(i, attempt.counts[i].plus(cost));
				}
				else if (item instanceof LeakyBucket leaky) {
					store(i, attempt.backlogs[i].plus(leaky, cost));
				}
			}
			if (this.layout.permits() > 0) {
				this.held++;
			}
			attempt.waitNanos = Math.max(attempt.waitNanos, slotWaitMillis * 1_000_000L);
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
			if (item instanceof WindowQuota quota) {
				int q = this.layout.slot(i);
				boolean current = nowMillis < this.periodEnds[q] && nowMillis >= this.periodStarts[q];
				attempt.found[i] = quota.quota() - (current ? this.used[q] : 0);
				attempt.periodEnds[i] = current ? this.periodEnds[q] : quota.window(nowMillis).end();
				had &= attempt.found[i] >= cost;
			}
			else if (item instanceof SlidingWindow window) {
				Counts counts = counts(i).at(window, nowMillis);
				attempt.counts[i] = counts;
				attempt.found[i] = counts.remaining(window, nowMillis);
				had &= counts.fits(window, cost, nowMillis);
			}
			else if (item instanceof LeakyBucket leaky) {
				Backlog backlog = backlog(i).at(leaky, nowMillis);
				attempt.backlogs[i] = backlog;
				attempt.found[i] = backlog.remaining();
				had &= backlog.millisUntilDue(leaky) <= attempt.maxWaitMillis();
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
		if (fresh instanceof CountingEntry counting && counting.used.length == this.used.length
				&& counting.counters.length == this.counters.length) {
			System.arraycopy(this.used, 0, counting.used, 0, this.used.length);
			System.arraycopy(this.periodStarts, 0, counting.periodStarts, 0, this.used.length);
			System.arraycopy(this.periodEnds, 0, counting.periodEnds, 0, this.used.length);
			System.arraycopy(this.counters, 0, counting.counters, 0, this.counters.length);
			counting.held = this.held;
		}
	}

	/** Counts from zero when the time is past the window counted so far. */
	private void enterPeriod(int q, WindowQuota quota, long nowMillis) {
		if (nowMillis < this.periodStarts[q] || nowMillis >= this.periodEnds[q]) {
			Window window = quota.window(nowMillis);
			this.periodStarts[q] = window.start();
			this.periodEnds[q] = window.end();
			this.used[q] = 0;
		}
	}

	/** The counts of the sliding window that is item {@code i}, as last stored. */
	private Counts counts(int i) {
		int at = this.layout.slot(i);
		return new Counts(this.counters[at], this.counters[at + 1], this.counters[at + 2]);
	}

	private void store(int i, Counts counts) {
		int at = this.layout.slot(i);
		this.counters[at] = counts.start();
		this.counters[at + 1] = counts.previous();
		this.counters[at + 2] = counts.current();
	}

	/** The backlog of the leaky bucket that is item {@code i}, as last stored. */
	private Backlog backlog(int i) {
		int at = this.layout.slot(i);
		return new Backlog(this.counters[at], this.counters[at + 1]);
	}

	private void store(int i, Backlog backlog) {
		int at = this.layout.slot(i);
		this.counters[at] = backlog.units();
		this.counters[at + 1] = backlog.atMillis();
	}

	@Override
	synchronized void giveBack(Attempt attempt) {
		super.giveBack(attempt);
		long cost = attempt.check.cost();
		List<Bandwidth> items = this.layout.bandwidths();
		for (int i = 0; i < items.size(); i++) {
			Bandwidth item = items.get(i);
			// a period that ended since the take counted nothing of it
			if (item instanceof WindowQuota && this.periodEnds[this.layout.slot(i)] == attempt.periodEnds[i]) {
				this.used[this.layout.slot(i)] -= cost;
			}
			else if (item instanceof SlidingWindow window) {
				// from the window the take counted in, wherever it is now
				store(i, counts(i).minus(window, cost, attempt.counts[i].start()));
			}
			else if (item instanceof LeakyBucket leaky) {
				store(i, backlog(i).minus(leaky, cost));
			}
		}
		if (this.layout.permits() > 0) {
			this.held--;
		}
	}

	/**
	 * Gives back tokens, the count of the current window and a leaky bucket's slots;
	 * permits are their holders' to release. A sliding window gives back from its current
	 * count only: a request counted in the previous window stays counted there.
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
		List<Bandwidth> items = this.layout.bandwidths();
		for (int i = 0; i < items.size() && this.counters.length > 0; i++) {
			Bandwidth item = items.get(i);
			if (item instanceof SlidingWindow window) {
				Counts counts = counts(i).at(window, nowMillis);
				store(i, counts.minus(window, cost, counts.start()));
			}
			else if (item instanceof LeakyBucket leaky) {
				store(i, backlog(i).at(leaky, nowMillis).minus(leaky, cost));
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
	 * permits are held, else until the buckets are full, no window counts anything and
	 * every backlog has drained.
	 */
	private synchronized long idleNanos(Clock clock) {
		if (this.held > 0) {
			return Long.MAX_VALUE;
		}
		long nowMillis = clock.millis();
		long idleMillis = 0;
		for (int q = 0; q < this.used.length; q++) {
			if (this.used[q] > 0 && nowMillis < this.periodEnds[q]) {
				// a count must outlive its period, or the quota would come back early
				idleMillis = Math.max(idleMillis, this.periodEnds[q] - nowMillis);
			}
		}
		List<Bandwidth> items = this.layout.bandwidths();
		for (int i = 0; i < items.size() && this.counters.length > 0; i++) {
			Bandwidth item = items.get(i);
			if (item instanceof SlidingWindow window) {
				// until both counts have slid out of the window
				idleMillis = Math.max(idleMillis, counts(i).millisUntilEmpty(window, nowMillis));
			}
			else if (item instanceof LeakyBucket leaky) {
				idleMillis = Math.max(idleMillis, backlog(i).at(leaky, nowMillis).millisUntilDue(leaky));
			}
		}
		return Math.max(tokensFullNanos(), idleMillis * 1_000_000L);
	}

	@Override
	synchronized boolean pinned() {
		return this.held > 0;
	}

}
