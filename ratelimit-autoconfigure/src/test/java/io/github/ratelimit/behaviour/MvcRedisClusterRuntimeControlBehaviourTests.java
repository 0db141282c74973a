package io.github.ratelimit.behaviour;

/**
 * Runtime control (overrides, access rules, bans, the endpoint, metrics) on Spring MVC
 * (Tomcat), with buckets and control state in a Redis Cluster of three masters.
 */
class MvcRedisClusterRuntimeControlBehaviourTests extends RuntimeControlBehaviourTests {

	MvcRedisClusterRuntimeControlBehaviourTests() {
		super(Stack.MVC, Storage.REDIS_CLUSTER);
	}

}
