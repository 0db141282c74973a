package io.github.ratelimit.behaviour;

/**
 * The status endpoint suite on WebFlux with buckets in Redis.
 */
class WebFluxRedisStatusBehaviourTests extends StatusBehaviourTests {

	WebFluxRedisStatusBehaviourTests() {
		super(Stack.WEBFLUX, Storage.REDIS);
	}

}
