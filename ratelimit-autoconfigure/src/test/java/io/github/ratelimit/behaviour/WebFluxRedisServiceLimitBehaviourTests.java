package io.github.ratelimit.behaviour;

/**
 * The service-limit suite on WebFlux with buckets in Redis (script strategy).
 */
class WebFluxRedisServiceLimitBehaviourTests extends ServiceLimitBehaviourTests {

	WebFluxRedisServiceLimitBehaviourTests() {
		super(Stack.WEBFLUX, Storage.REDIS);
	}

}
