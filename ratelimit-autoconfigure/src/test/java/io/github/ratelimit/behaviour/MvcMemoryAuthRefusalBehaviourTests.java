package io.github.ratelimit.behaviour;

/**
 * Spring Security's refusals counted by a failures-only limit, on Mvc with buckets in
 * memory.
 */
class MvcMemoryAuthRefusalBehaviourTests extends AuthRefusalBehaviourTests {

	MvcMemoryAuthRefusalBehaviourTests() {
		super(Stack.MVC, Storage.MEMORY);
	}

}
