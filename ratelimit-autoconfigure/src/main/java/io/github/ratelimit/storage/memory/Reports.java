package io.github.ratelimit.storage.memory;

import java.util.List;

import io.github.ratelimit.policy.Bandwidth;
import io.github.ratelimit.policy.ConcurrencyLimit;
import io.github.ratelimit.policy.LeakyBucket;
import io.github.ratelimit.policy.LeakyBucket.Backlog;
import io.github.ratelimit.policy.SlidingWindow;
import io.github.ratelimit.policy.SlidingWindow.Counts;
import io.github.ratelimit.policy.TokenBucket;
import io.github.ratelimit.policy.WindowQuota;
import io.github.ratelimit.storage.BandwidthResult;
import io.github.ratelimit.storage.CheckResult;

/**
 * The store's report of an attempt, per kind of item, from what the attempt found and
 * whether it kept its share: a token bucket's waits follow its refill, a quota's or a
 * fixed window's run to its window's end, a sliding window's and a leaky bucket's follow
 * their arithmetic ({@link Counts}, {@link Backlog}), a concurrency cap's are
 * {@link ConcurrencyLimit#RETRY_MILLIS}.
 */
final class Reports {

	private Reports() {
	}

	static CheckResult of(Attempt attempt, long nowMillis) {
		List<Bandwidth> items = attempt.entry.layout.bandwidths();
		long cost = attempt.check.cost();
		BandwidthResult[] results = new BandwidthResult[items.size()];
		for (int i = 0; i < results.length; i++) {
			Bandwidth item = items.get(i);
			long found = attempt.found[i];
			if (item instanceof TokenBucket bucket) {
				results[i] = tokenBucket(bucket, found, cost, attempt.took);
			}
			else if (item instanceof WindowQuota quota) {
				results[i] = quota(quota, found, cost, attempt.took, attempt.periodEnds[i] - nowMillis);
			}
			else if (item instanceof SlidingWindow window) {
				results[i] = slidingWindow(window, attempt.counts[i], cost, attempt.took, nowMillis);
			}
			else if (item instanceof LeakyBucket leaky) {
				results[i] = leakyBucket(leaky, attempt.backlogs[i], cost, attempt.took);
			}
			else {
				results[i] = permits((ConcurrencyLimit) item, found, attempt.took);
			}
		}
		return new CheckResult(attempt.had, List.of(results));
	}

	/**
	 * A bucket in debt (found below zero) reports none left and the wait for the debt and
	 * the cost.
	 */
	private static BandwidthResult tokenBucket(TokenBucket bucket, long found, long cost, boolean took) {
		long after = took ? found - cost : found;
		long untilCost = (found >= cost) ? 0 : bucket.millisToRefill(cost - found);
		// tokens are whole here: a wait may be overstated by less than one token's refill
		return new BandwidthResult(Math.max(0, Math.min(bucket.capacity(), after)), untilCost,
				bucket.millisToRefill(bucket.capacity() - after),
				took ? bucket.millisToRefill(cost - after) : untilCost);
	}

	private static BandwidthResult quota(WindowQuota quota, long found, long cost, boolean took, long untilEnd) {
		long after = took ? found - cost : found;
		return new BandwidthResult(Math.max(0, after), (found >= cost) ? 0 : untilEnd,
				(after < quota.quota()) ? untilEnd : 0, (after < cost) ? untilEnd : 0);
	}

	private static BandwidthResult slidingWindow(SlidingWindow window, Counts found, long cost, boolean took,
			long nowMillis) {
		Counts after = took ? found.plus(cost) : found;
		return new BandwidthResult(after.remaining(window, nowMillis), found.millisUntil(window, cost, nowMillis),
				after.millisUntilEmpty(window, nowMillis), after.millisUntil(window, cost, nowMillis));
	}

	/** A leaky bucket's waits are all for its next slot: it frees one at a time. */
	private static BandwidthResult leakyBucket(LeakyBucket leaky, Backlog found, long cost, boolean took) {
		Backlog after = took ? found.plus(leaky, cost) : found;
		long untilDue = after.millisUntilDue(leaky);
		return new BandwidthResult(after.remaining(), found.millisUntilDue(leaky), untilDue, untilDue);
	}

	private static BandwidthResult permits(ConcurrencyLimit concurrency, long found, boolean took) {
		long after = took ? found - 1 : found;
		long retry = ConcurrencyLimit.RETRY_MILLIS;
		return new BandwidthResult(Math.max(0, after), (found >= 1) ? 0 : retry,
				(after < concurrency.permits()) ? retry : 0, (after < 1) ? retry : 0);
	}

}
