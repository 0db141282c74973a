package io.github.ratelimit.behaviour;

/**
 * The load-shedding suite on WebFlux with buckets in memory.
 */
class WebFluxMemoryLoadSheddingBehaviourTests extends LoadSheddingBehaviourTests {

	WebFluxMemoryLoadSheddingBehaviourTests() {
		super(Stack.WEBFLUX, Storage.MEMORY);
	}

}
