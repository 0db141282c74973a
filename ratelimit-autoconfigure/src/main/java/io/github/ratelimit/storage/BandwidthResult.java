package io.github.ratelimit.storage;

/**
 * What a store found for one bandwidth of one bucket: the numbers the response reports, computed by the
 * store that knows its own refill arithmetic (a script store on the server).
 *
 * @param remaining whole tokens left: after this request's tokens were taken when it took them,
 * otherwise as found
 * @param millisUntilCost how long until the request's cost was there, as found before the decision:
 * {@code 0} when it was, so a positive value means this bandwidth was short
 * @param millisUntilFull how long until the bucket is full again, as left by the decision
 * @param millisUntilCostAgain how long until the bucket holds the request's cost again, as left by the
 * decision: {@code 0} while it does
 */
public record BandwidthResult(long remaining, long millisUntilCost, long millisUntilFull, long millisUntilCostAgain) {

	/** Whether this bandwidth lacked the request's cost. */
	public boolean wasShort() {
		return this.millisUntilCost > 0;
	}

}
