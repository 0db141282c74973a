package io.github.ratelimit.storage.redis.script;

import java.util.Arrays;
import java.util.function.ToIntFunction;

/**
 * The policy kinds when every key has a slot of its own, as in Redis Cluster: one script
 * per slot, and what the admitting slots took (tokens, quota counts, permits) given back
 * when another refuses.
 */
class RedisScriptAcrossSlotsPolicyKindsStoreContractTests extends RedisScriptPolicyKindsStoreContractTests {

	@Override
	ToIntFunction<byte[]> slots() {
		return Arrays::hashCode;
	}

}
