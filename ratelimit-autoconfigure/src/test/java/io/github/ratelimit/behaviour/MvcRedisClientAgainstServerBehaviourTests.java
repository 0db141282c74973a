package io.github.ratelimit.behaviour;

/**
 * The client side against a server on Spring MVC with buckets in Redis (script strategy).
 */
class MvcRedisClientAgainstServerBehaviourTests extends ClientAgainstServerBehaviourTests {

	MvcRedisClientAgainstServerBehaviourTests() {
		super(Stack.MVC, Storage.REDIS);
	}

}
