package io.github.ratelimit.behaviour;

/**
 * The warm-up suite on WebFlux with buckets in memory.
 */
class WebFluxMemoryWarmUpBehaviourTests extends WarmUpBehaviourTests {

	WebFluxMemoryWarmUpBehaviourTests() {
		super(Stack.WEBFLUX, Storage.MEMORY);
	}

}
