package io.github.ratelimit.behaviour;

/**
 * The warm-up suite on WebFlux with buckets in Redis (script strategy).
 */
class WebFluxRedisWarmUpBehaviourTests extends WarmUpBehaviourTests {

	WebFluxRedisWarmUpBehaviourTests() {
		super(Stack.WEBFLUX, Storage.REDIS);
	}

}
