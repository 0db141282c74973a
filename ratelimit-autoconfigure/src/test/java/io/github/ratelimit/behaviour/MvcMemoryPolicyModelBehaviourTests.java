package io.github.ratelimit.behaviour;

/**
 * The policy-model suite on Spring MVC with buckets in memory.
 */
class MvcMemoryPolicyModelBehaviourTests extends PolicyModelBehaviourTests {

	MvcMemoryPolicyModelBehaviourTests() {
		super(Stack.MVC, Storage.MEMORY);
	}

}
