package io.github.ratelimit.behaviour;

/**
 * The warm-up suite on Spring MVC with buckets in Redis (script strategy).
 */
class MvcRedisWarmUpBehaviourTests extends WarmUpBehaviourTests {

	MvcRedisWarmUpBehaviourTests() {
		super(Stack.MVC, Storage.REDIS);
	}

}
