package io.github.ratelimit.behaviour;

/**
 * The behavioural suite on Spring MVC (Tomcat), with buckets in a master found through a
 * Redis Sentinel, with the default strategy (the script).
 */
class MvcRedisSentinelBehaviourTests extends RateLimitBehaviourTests {

	MvcRedisSentinelBehaviourTests() {
		super(Stack.MVC, Storage.REDIS_SENTINEL);
	}

}
