package io.github.ratelimit.behaviour;

/**
 * The load-shedding suite on WebFlux with buckets in Redis (script strategy).
 */
class WebFluxRedisLoadSheddingBehaviourTests extends LoadSheddingBehaviourTests {

	WebFluxRedisLoadSheddingBehaviourTests() {
		super(Stack.WEBFLUX, Storage.REDIS);
	}

}
