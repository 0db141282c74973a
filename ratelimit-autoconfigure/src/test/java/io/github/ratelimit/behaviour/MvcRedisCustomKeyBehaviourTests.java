package io.github.ratelimit.behaviour;

/**
 * The custom-key suite on Spring MVC with buckets in Redis (script strategy).
 */
class MvcRedisCustomKeyBehaviourTests extends CustomKeyBehaviourTests {

	MvcRedisCustomKeyBehaviourTests() {
		super(Stack.MVC, Storage.REDIS);
	}

}
