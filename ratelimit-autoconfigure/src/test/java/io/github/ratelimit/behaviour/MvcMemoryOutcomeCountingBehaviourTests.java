package io.github.ratelimit.behaviour;

/**
 * The outcome-counting suite on Spring MVC with buckets in memory.
 */
class MvcMemoryOutcomeCountingBehaviourTests extends OutcomeCountingBehaviourTests {

	MvcMemoryOutcomeCountingBehaviourTests() {
		super(Stack.MVC, Storage.MEMORY);
	}

}
