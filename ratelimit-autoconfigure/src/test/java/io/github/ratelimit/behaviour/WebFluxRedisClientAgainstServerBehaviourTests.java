package io.github.ratelimit.behaviour;

/**
 * The client side against a server on WebFlux with buckets in Redis (script strategy).
 */
class WebFluxRedisClientAgainstServerBehaviourTests extends ClientAgainstServerBehaviourTests {

	WebFluxRedisClientAgainstServerBehaviourTests() {
		super(Stack.WEBFLUX, Storage.REDIS);
	}

}
