package io.github.ratelimit.storage;

import io.github.ratelimit.policy.Policy;

/**
 * One bucket a request must take tokens from. The bucket holds one state per item of the
 * policy's limit: a token bucket and a calendar quota give {@code cost} tokens, a
 * concurrency cap one permit (whatever the cost) that the request holds until
 * {@link Permits#release()}.
 *
 * @param policy the policy whose limit shapes the bucket
 * @param key the store key of the bucket (already namespaced and escaped)
 * @param cost the tokens the request takes
 * @param enforced whether a shortfall here refuses the request; a check that is not
 * enforced is only measured: it takes its tokens when it has them and the request is
 * admitted, and never refuses
 * @param maxWaitMillis how long the request may wait for this bucket's token buckets to
 * refill: a shortfall that refills within it is taken now (the bucket goes into debt) and
 * the decision says how long to wait; 0 for never. Calendar quotas and concurrency caps
 * never wait.
 */
public record LimitCheck(Policy policy, String key, long cost, boolean enforced, long maxWaitMillis) {

	public LimitCheck {
		// 0 only for RateLimitStore#inspect, which takes nothing
		if (cost < 0) {
			throw new IllegalArgumentException("cost must not be negative, was " + cost);
		}
		if (maxWaitMillis < 0) {
			throw new IllegalArgumentException("maxWaitMillis must not be negative, was " + maxWaitMillis);
		}
	}

	/** A check that never waits. */
	public LimitCheck(Policy policy, String key, long cost, boolean enforced) {
		this(policy, key, cost, enforced, 0);
	}

	/** An enforced check. */
	public static LimitCheck enforced(Policy policy, String key, long cost) {
		return new LimitCheck(policy, key, cost, true);
	}

}
