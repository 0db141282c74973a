package io.github.ratelimit.behaviour;

/**
 * The warm-up suite on Spring MVC with buckets in memory.
 */
class MvcMemoryWarmUpBehaviourTests extends WarmUpBehaviourTests {

	MvcMemoryWarmUpBehaviourTests() {
		super(Stack.MVC, Storage.MEMORY);
	}

}
