package io.github.ratelimit.behaviour;

/**
 * Failed-login protection with its defaults, on Mvc with buckets in memory.
 */
class MvcMemoryLoginProtectionBehaviourTests extends LoginProtectionBehaviourTests {

	MvcMemoryLoginProtectionBehaviourTests() {
		super(Stack.MVC, Storage.MEMORY);
	}

}
