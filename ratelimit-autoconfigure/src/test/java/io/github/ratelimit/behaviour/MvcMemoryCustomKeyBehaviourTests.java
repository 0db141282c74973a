package io.github.ratelimit.behaviour;

/**
 * The custom-key suite on Spring MVC with buckets in memory.
 */
class MvcMemoryCustomKeyBehaviourTests extends CustomKeyBehaviourTests {

	MvcMemoryCustomKeyBehaviourTests() {
		super(Stack.MVC, Storage.MEMORY);
	}

}
