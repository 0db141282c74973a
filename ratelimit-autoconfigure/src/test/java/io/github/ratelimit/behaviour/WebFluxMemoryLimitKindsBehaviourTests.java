package io.github.ratelimit.behaviour;

/**
 * The limit-kinds suite on WebFlux with buckets in memory.
 */
class WebFluxMemoryLimitKindsBehaviourTests extends LimitKindsBehaviourTests {

	WebFluxMemoryLimitKindsBehaviourTests() {
		super(Stack.WEBFLUX, Storage.MEMORY);
	}

}
