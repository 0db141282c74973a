package io.github.ratelimit.behaviour;

/**
 * The gate suite on WebFlux with buckets and control state in memory.
 */
class WebFluxMemoryGateBehaviourTests extends GateBehaviourTests {

	WebFluxMemoryGateBehaviourTests() {
		super(Stack.WEBFLUX, Storage.MEMORY);
	}

}
