package io.github.ratelimit.behaviour;

/**
 * The behavioural suite on WebFlux (Netty), with buckets in Redis kept by the
 * {@code bucket4j} strategy.
 */
class WebFluxRedisBucket4jBehaviourTests extends RateLimitBehaviourTests {

	WebFluxRedisBucket4jBehaviourTests() {
		super(Stack.WEBFLUX, Storage.REDIS_BUCKET4J);
	}

}
