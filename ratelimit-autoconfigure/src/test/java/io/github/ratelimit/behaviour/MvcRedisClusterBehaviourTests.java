package io.github.ratelimit.behaviour;

/**
 * The behavioural suite on Spring MVC (Tomcat), with buckets in a Redis Cluster of three
 * masters with the default strategy (the script).
 */
class MvcRedisClusterBehaviourTests extends RateLimitBehaviourTests {

	MvcRedisClusterBehaviourTests() {
		super(Stack.MVC, Storage.REDIS_CLUSTER);
	}

}
