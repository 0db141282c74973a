package io.github.ratelimit.behaviour;

/**
 * The status endpoint suite on Spring MVC with buckets in Redis.
 */
class MvcRedisStatusBehaviourTests extends StatusBehaviourTests {

	MvcRedisStatusBehaviourTests() {
		super(Stack.MVC, Storage.REDIS);
	}

}
