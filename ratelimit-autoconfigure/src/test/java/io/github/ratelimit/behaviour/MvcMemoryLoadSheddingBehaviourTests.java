package io.github.ratelimit.behaviour;

/**
 * The load-shedding suite on Spring MVC with buckets in memory.
 */
class MvcMemoryLoadSheddingBehaviourTests extends LoadSheddingBehaviourTests {

	MvcMemoryLoadSheddingBehaviourTests() {
		super(Stack.MVC, Storage.MEMORY);
	}

}
