package io.github.ratelimit.behaviour;

/**
 * The policy model's behaviour (quotas, concurrency caps, modes, soft limits, waiting) on
 * WebFlux (Netty), with buckets in a Redis Cluster of three masters: one request's
 * buckets live on different nodes.
 */
class WebFluxRedisClusterPolicyModelBehaviourTests extends PolicyModelBehaviourTests {

	WebFluxRedisClusterPolicyModelBehaviourTests() {
		super(Stack.WEBFLUX, Storage.REDIS_CLUSTER);
	}

}
