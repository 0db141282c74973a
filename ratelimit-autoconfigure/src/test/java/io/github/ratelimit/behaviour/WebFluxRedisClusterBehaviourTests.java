package io.github.ratelimit.behaviour;

/**
 * The behavioural suite on WebFlux (Netty), with buckets in a Redis Cluster of three
 * masters with the default strategy (the script).
 */
class WebFluxRedisClusterBehaviourTests extends RateLimitBehaviourTests {

	WebFluxRedisClusterBehaviourTests() {
		super(Stack.WEBFLUX, Storage.REDIS_CLUSTER);
	}

}
