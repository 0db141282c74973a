package io.github.ratelimit.behaviour;

/**
 * The client side against a server on Spring MVC with buckets in memory.
 */
class MvcMemoryClientAgainstServerBehaviourTests extends ClientAgainstServerBehaviourTests {

	MvcMemoryClientAgainstServerBehaviourTests() {
		super(Stack.MVC, Storage.MEMORY);
	}

}
