package io.github.ratelimit.behaviour;

/**
 * The status endpoint suite on WebFlux with buckets in memory.
 */
class WebFluxMemoryStatusBehaviourTests extends StatusBehaviourTests {

	WebFluxMemoryStatusBehaviourTests() {
		super(Stack.WEBFLUX, Storage.MEMORY);
	}

}
