package io.github.ratelimit.storage.bucket4j;

import java.util.List;

import io.github.bucket4j.BucketState;

import io.github.ratelimit.policy.Bandwidth;
import io.github.ratelimit.policy.TokenBucket;
import io.github.ratelimit.storage.BandwidthResult;
import io.github.ratelimit.storage.CheckResult;
import io.github.ratelimit.storage.LimitCheck;

/**
 * Turns a Bucket4j bucket's state into the store's report: tokens left, and the waits
 * computed with the bandwidth's own refill arithmetic.
 */
public final class BucketResults {

	private BucketResults() {
	}

	/**
	 * The result of a check from the state Bucket4j returned with its answer.
	 * @param check the check
	 * @param consumed whether Bucket4j took the tokens
	 * @param state the bucket's state after the attempt
	 * @param tokensGivenBack tokens added to the state since (a refund), or {@code 0}
	 * @return the result; a bucket that refused always reports at least one short
	 * bandwidth
	 */
	public static CheckResult of(LimitCheck check, boolean consumed, BucketState state, long tokensGivenBack) {
		List<Bandwidth> bandwidths = check.policy().limit().bandwidths();
		BandwidthResult[] results = new BandwidthResult[bandwidths.size()];
		long cost = check.cost();
		int lowest = 0;
		for (int b = 0; b < results.length; b++) {
			TokenBucket bandwidth = BucketConfigurations.tokenBucket(bandwidths.get(b));
			long available = Math.min(bandwidth.capacity(), Math.max(0, state.getCurrentSize(b)) + tokensGivenBack);
			// before a successful take the bucket held available + cost
			long before = consumed ? available + cost : available;
			long untilCost = (before >= cost) ? 0 : bandwidth.millisToRefill(cost - before);
			// tokens are whole here: the wait for the next cost may be overstated by less
			// than one token's refill
			long untilCostAgain = (available >= cost) ? 0 : bandwidth.millisToRefill(cost - available);
			results[b] = new BandwidthResult(available, untilCost,
					bandwidth.millisToRefill(bandwidth.capacity() - available), consumed ? untilCostAgain : untilCost);
			if (available < results[lowest].remaining()) {
				lowest = b;
			}
		}
		if (!consumed && !anyShort(results)) {
			// Bucket4j refused but its state (read with a batch, or refilled since) shows
			// enough: the
			// bandwidth with the fewest tokens is the one that refused; it frees up no
			// sooner than 1 ms
			BandwidthResult refused = results[lowest];
			results[lowest] = new BandwidthResult(refused.remaining(), 1, refused.millisUntilFull(), 1);
		}
		return new CheckResult(consumed, List.of(results));
	}

	private static boolean anyShort(BandwidthResult[] results) {
		for (BandwidthResult result : results) {
			if (result.wasShort()) {
				return true;
			}
		}
		return false;
	}

}
