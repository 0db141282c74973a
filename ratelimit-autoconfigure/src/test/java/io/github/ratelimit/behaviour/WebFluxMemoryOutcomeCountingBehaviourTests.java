package io.github.ratelimit.behaviour;

/**
 * The outcome-counting suite on WebFlux with buckets in memory.
 */
class WebFluxMemoryOutcomeCountingBehaviourTests extends OutcomeCountingBehaviourTests {

	WebFluxMemoryOutcomeCountingBehaviourTests() {
		super(Stack.WEBFLUX, Storage.MEMORY);
	}

}
