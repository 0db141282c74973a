package io.github.ratelimit.storage;

import io.github.ratelimit.policy.Policy;

/**
 * One bucket a request must take tokens from.
 *
 * @param policy the policy whose limit shapes the bucket
 * @param key the store key of the bucket (already namespaced and escaped)
 * @param cost the tokens the request takes
 */
public record LimitCheck(Policy policy, String key, long cost) {

}
