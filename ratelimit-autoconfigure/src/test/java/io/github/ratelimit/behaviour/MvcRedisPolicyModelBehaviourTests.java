package io.github.ratelimit.behaviour;

/**
 * The policy-model suite on Spring MVC with buckets in Redis (script strategy).
 */
class MvcRedisPolicyModelBehaviourTests extends PolicyModelBehaviourTests {

	MvcRedisPolicyModelBehaviourTests() {
		super(Stack.MVC, Storage.REDIS);
	}

}
