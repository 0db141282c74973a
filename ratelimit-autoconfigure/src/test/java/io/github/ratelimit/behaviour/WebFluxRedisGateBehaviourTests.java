package io.github.ratelimit.behaviour;

/**
 * The gate suite on WebFlux with buckets and control state in Redis.
 */
class WebFluxRedisGateBehaviourTests extends GateBehaviourTests {

	WebFluxRedisGateBehaviourTests() {
		super(Stack.WEBFLUX, Storage.REDIS);
	}

}
