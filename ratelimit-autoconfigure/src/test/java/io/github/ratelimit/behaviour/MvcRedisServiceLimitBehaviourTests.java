package io.github.ratelimit.behaviour;

/**
 * The service-limit suite on Spring MVC with buckets in Redis (script strategy).
 */
class MvcRedisServiceLimitBehaviourTests extends ServiceLimitBehaviourTests {

	MvcRedisServiceLimitBehaviourTests() {
		super(Stack.MVC, Storage.REDIS);
	}

}
