package io.github.ratelimit.behaviour;

/**
 * The service-limit suite on WebFlux with buckets in memory.
 */
class WebFluxMemoryServiceLimitBehaviourTests extends ServiceLimitBehaviourTests {

	WebFluxMemoryServiceLimitBehaviourTests() {
		super(Stack.WEBFLUX, Storage.MEMORY);
	}

}
