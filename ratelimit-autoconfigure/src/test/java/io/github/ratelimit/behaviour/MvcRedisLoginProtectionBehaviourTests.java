package io.github.ratelimit.behaviour;

/**
 * Failed-login protection with its defaults, on Mvc with buckets in Redis.
 */
class MvcRedisLoginProtectionBehaviourTests extends LoginProtectionBehaviourTests {

	MvcRedisLoginProtectionBehaviourTests() {
		super(Stack.MVC, Storage.REDIS);
	}

}
