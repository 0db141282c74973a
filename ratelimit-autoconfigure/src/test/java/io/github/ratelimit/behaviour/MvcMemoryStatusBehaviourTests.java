package io.github.ratelimit.behaviour;

/**
 * The status endpoint suite on Spring MVC with buckets in memory.
 */
class MvcMemoryStatusBehaviourTests extends StatusBehaviourTests {

	MvcMemoryStatusBehaviourTests() {
		super(Stack.MVC, Storage.MEMORY);
	}

}
