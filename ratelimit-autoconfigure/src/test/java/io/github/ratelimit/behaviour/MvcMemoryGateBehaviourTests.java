package io.github.ratelimit.behaviour;

/**
 * The gate suite on Spring MVC with buckets and control state in memory.
 */
class MvcMemoryGateBehaviourTests extends GateBehaviourTests {

	MvcMemoryGateBehaviourTests() {
		super(Stack.MVC, Storage.MEMORY);
	}

}
