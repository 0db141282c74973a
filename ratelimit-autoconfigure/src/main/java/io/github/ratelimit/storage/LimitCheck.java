package io.github.ratelimit.storage;

import io.github.ratelimit.policy.Policy;

/**
 * One bucket a request must take tokens from.
 *
 * @param policy the policy whose limit shapes the bucket
 * @param key the store key of the bucket (already namespaced and escaped)
 * @param cost the tokens the request takes
 * @param enforced whether a shortfall here refuses the request; a check that is not enforced is only
 * measured: it takes its tokens when it has them and the request is admitted, and never refuses
 */
public record LimitCheck(Policy policy, String key, long cost, boolean enforced) {

	public LimitCheck {
		if (cost < 1) {
			throw new IllegalArgumentException("cost must be at least 1, was " + cost);
		}
	}

	/** An enforced check. */
	public static LimitCheck enforced(Policy policy, String key, long cost) {
		return new LimitCheck(policy, key, cost, true);
	}

}
