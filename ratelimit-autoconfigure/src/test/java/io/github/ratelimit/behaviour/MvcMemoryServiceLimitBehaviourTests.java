package io.github.ratelimit.behaviour;

/**
 * The service-limit suite on Spring MVC with buckets in memory.
 */
class MvcMemoryServiceLimitBehaviourTests extends ServiceLimitBehaviourTests {

	MvcMemoryServiceLimitBehaviourTests() {
		super(Stack.MVC, Storage.MEMORY);
	}

}
