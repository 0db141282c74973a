package io.github.ratelimit.behaviour;

/**
 * The outcome-counting suite on Spring MVC with buckets in Redis (script strategy).
 */
class MvcRedisOutcomeCountingBehaviourTests extends OutcomeCountingBehaviourTests {

	MvcRedisOutcomeCountingBehaviourTests() {
		super(Stack.MVC, Storage.REDIS);
	}

}
