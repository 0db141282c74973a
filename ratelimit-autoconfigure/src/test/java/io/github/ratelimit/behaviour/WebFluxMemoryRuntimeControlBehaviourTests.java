package io.github.ratelimit.behaviour;

/**
 * The runtime-control suite on WebFlux with buckets and control state in memory.
 */
class WebFluxMemoryRuntimeControlBehaviourTests extends RuntimeControlBehaviourTests {

	WebFluxMemoryRuntimeControlBehaviourTests() {
		super(Stack.WEBFLUX, Storage.MEMORY);
	}

}
