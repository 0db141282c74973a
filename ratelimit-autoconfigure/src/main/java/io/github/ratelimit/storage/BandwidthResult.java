package io.github.ratelimit.storage;

/**
 * What a store found for one item (bandwidth) of one bucket: the numbers the response
 * reports, computed by the store that knows its own refill arithmetic (a script store on
 * the server). For a calendar quota the waits run to the period's end; for a concurrency
 * cap {@code remaining} is the free permits and a wait is
 * {@code ConcurrencyLimit.RETRY_MILLIS} while none is free (0 otherwise).
 *
 * @param remaining whole tokens left: after this request's tokens were taken when it took
 * them, otherwise as found; never negative (0 while a bucket is in debt for waiting
 * requests)
 * @param millisUntilCost how long until the request's cost was there, as found before the
 * decision: {@code 0} when it was, so a positive value means this bandwidth was short
 * @param millisUntilFull how long until the bucket is full again, as left by the decision
 * @param millisUntilCostAgain how long until the bucket holds the request's cost again,
 * as left by the decision: {@code 0} while it does
 */
public record BandwidthResult(long remaining, long millisUntilCost, long millisUntilFull, long millisUntilCostAgain) {

	/** Whether this bandwidth lacked the request's cost. */
	public boolean wasShort() {
		return this.millisUntilCost > 0;
	}

}
