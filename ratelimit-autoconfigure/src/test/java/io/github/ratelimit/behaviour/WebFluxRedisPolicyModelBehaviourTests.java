package io.github.ratelimit.behaviour;

/**
 * The policy-model suite on WebFlux with buckets in Redis (script strategy).
 */
class WebFluxRedisPolicyModelBehaviourTests extends PolicyModelBehaviourTests {

	WebFluxRedisPolicyModelBehaviourTests() {
		super(Stack.WEBFLUX, Storage.REDIS);
	}

}
