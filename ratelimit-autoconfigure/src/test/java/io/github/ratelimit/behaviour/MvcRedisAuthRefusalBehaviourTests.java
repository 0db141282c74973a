package io.github.ratelimit.behaviour;

/**
 * Spring Security's refusals counted by a failures-only limit, on Mvc with buckets in
 * Redis.
 */
class MvcRedisAuthRefusalBehaviourTests extends AuthRefusalBehaviourTests {

	MvcRedisAuthRefusalBehaviourTests() {
		super(Stack.MVC, Storage.REDIS);
	}

}
