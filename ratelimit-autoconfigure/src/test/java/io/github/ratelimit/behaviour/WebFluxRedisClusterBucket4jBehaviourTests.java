package io.github.ratelimit.behaviour;

/**
 * The behavioural suite on WebFlux (Netty), with buckets in a Redis Cluster of three
 * masters kept by the {@code bucket4j} strategy.
 */
class WebFluxRedisClusterBucket4jBehaviourTests extends RateLimitBehaviourTests {

	WebFluxRedisClusterBucket4jBehaviourTests() {
		super(Stack.WEBFLUX, Storage.REDIS_CLUSTER_BUCKET4J);
	}

}
