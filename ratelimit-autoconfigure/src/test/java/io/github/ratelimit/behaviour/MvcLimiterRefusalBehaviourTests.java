package io.github.ratelimit.behaviour;

/**
 * The limiter's own refusals and the gate's reservation, on Mvc in memory.
 */
class MvcLimiterRefusalBehaviourTests extends LimiterRefusalBehaviourTests {

	MvcLimiterRefusalBehaviourTests() {
		super(Stack.MVC);
	}

}
