package io.github.ratelimit.behaviour;

/**
 * The load-shedding suite on Spring MVC with buckets in Redis (script strategy).
 */
class MvcRedisLoadSheddingBehaviourTests extends LoadSheddingBehaviourTests {

	MvcRedisLoadSheddingBehaviourTests() {
		super(Stack.MVC, Storage.REDIS);
	}

}
