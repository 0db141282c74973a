package io.github.ratelimit.behaviour;

/**
 * The limit-kinds suite on Spring MVC with buckets in Redis (script strategy), two
 * instances sharing one Redis.
 */
class MvcRedisLimitKindsBehaviourTests extends LimitKindsBehaviourTests {

	MvcRedisLimitKindsBehaviourTests() {
		super(Stack.MVC, Storage.REDIS);
	}

}
