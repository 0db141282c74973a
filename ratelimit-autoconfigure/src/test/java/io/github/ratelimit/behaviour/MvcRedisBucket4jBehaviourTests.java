package io.github.ratelimit.behaviour;

/**
 * The behavioural suite on Spring MVC (Tomcat), with buckets in Redis kept by the
 * {@code bucket4j} strategy.
 */
class MvcRedisBucket4jBehaviourTests extends RateLimitBehaviourTests {

	MvcRedisBucket4jBehaviourTests() {
		super(Stack.MVC, Storage.REDIS_BUCKET4J);
	}

}
