package io.github.ratelimit.behaviour;

/**
 * The behavioural suite on Spring MVC (Tomcat), with buckets in Redis.
 */
class MvcRedisBehaviourTests extends RateLimitBehaviourTests {

	MvcRedisBehaviourTests() {
		super(Stack.MVC, Storage.REDIS);
	}

}
