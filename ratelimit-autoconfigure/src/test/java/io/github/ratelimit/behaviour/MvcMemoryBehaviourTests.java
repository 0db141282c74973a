package io.github.ratelimit.behaviour;

/**
 * The behavioural suite on Spring MVC (Tomcat), with buckets in memory.
 */
class MvcMemoryBehaviourTests extends RateLimitBehaviourTests {

	MvcMemoryBehaviourTests() {
		super(Stack.MVC, Storage.MEMORY);
	}

}
