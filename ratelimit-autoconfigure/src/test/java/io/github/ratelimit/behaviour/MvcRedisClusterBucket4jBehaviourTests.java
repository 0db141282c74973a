package io.github.ratelimit.behaviour;

/**
 * The behavioural suite on Spring MVC (Tomcat), with buckets in a Redis Cluster of three
 * masters kept by the {@code bucket4j} strategy.
 */
class MvcRedisClusterBucket4jBehaviourTests extends RateLimitBehaviourTests {

	MvcRedisClusterBucket4jBehaviourTests() {
		super(Stack.MVC, Storage.REDIS_CLUSTER_BUCKET4J);
	}

}
