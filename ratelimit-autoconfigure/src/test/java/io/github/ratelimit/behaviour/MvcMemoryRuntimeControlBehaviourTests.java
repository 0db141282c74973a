package io.github.ratelimit.behaviour;

/**
 * The runtime-control suite on Spring MVC with buckets and control state in memory.
 */
class MvcMemoryRuntimeControlBehaviourTests extends RuntimeControlBehaviourTests {

	MvcMemoryRuntimeControlBehaviourTests() {
		super(Stack.MVC, Storage.MEMORY);
	}

}
