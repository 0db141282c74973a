package io.github.ratelimit.behaviour;

/**
 * The limit-kinds suite on Spring MVC with buckets in memory.
 */
class MvcMemoryLimitKindsBehaviourTests extends LimitKindsBehaviourTests {

	MvcMemoryLimitKindsBehaviourTests() {
		super(Stack.MVC, Storage.MEMORY);
	}

}
