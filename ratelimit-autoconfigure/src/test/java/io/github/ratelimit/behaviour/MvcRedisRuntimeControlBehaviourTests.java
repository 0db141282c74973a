package io.github.ratelimit.behaviour;

/**
 * The runtime-control suite on Spring MVC with buckets and control state in Redis.
 */
class MvcRedisRuntimeControlBehaviourTests extends RuntimeControlBehaviourTests {

	MvcRedisRuntimeControlBehaviourTests() {
		super(Stack.MVC, Storage.REDIS);
	}

}
