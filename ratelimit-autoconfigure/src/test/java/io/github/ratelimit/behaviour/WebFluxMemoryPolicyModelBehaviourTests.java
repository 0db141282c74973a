package io.github.ratelimit.behaviour;

/**
 * The policy-model suite on WebFlux with buckets in memory.
 */
class WebFluxMemoryPolicyModelBehaviourTests extends PolicyModelBehaviourTests {

	WebFluxMemoryPolicyModelBehaviourTests() {
		super(Stack.WEBFLUX, Storage.MEMORY);
	}

}
