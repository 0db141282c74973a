package io.github.ratelimit.behaviour;

/**
 * The gate suite on Spring MVC with buckets and control state in Redis.
 */
class MvcRedisGateBehaviourTests extends GateBehaviourTests {

	MvcRedisGateBehaviourTests() {
		super(Stack.MVC, Storage.REDIS);
	}

}
