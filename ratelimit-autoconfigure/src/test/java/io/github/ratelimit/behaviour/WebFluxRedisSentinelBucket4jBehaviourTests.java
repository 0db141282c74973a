package io.github.ratelimit.behaviour;

/**
 * The behavioural suite on WebFlux (Netty), with buckets in a master found through a
 * Redis Sentinel, kept by the {@code bucket4j} strategy.
 */
class WebFluxRedisSentinelBucket4jBehaviourTests extends RateLimitBehaviourTests {

	WebFluxRedisSentinelBucket4jBehaviourTests() {
		super(Stack.WEBFLUX, Storage.REDIS_SENTINEL_BUCKET4J);
	}

}
