package io.github.ratelimit.behaviour;

/**
 * The custom-key suite on WebFlux with buckets in memory.
 */
class WebFluxMemoryCustomKeyBehaviourTests extends CustomKeyBehaviourTests {

	WebFluxMemoryCustomKeyBehaviourTests() {
		super(Stack.WEBFLUX, Storage.MEMORY);
	}

}
