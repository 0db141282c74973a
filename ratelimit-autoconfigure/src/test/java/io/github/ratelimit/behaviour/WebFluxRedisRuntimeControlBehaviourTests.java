package io.github.ratelimit.behaviour;

/**
 * The runtime-control suite on WebFlux with buckets and control state in Redis.
 */
class WebFluxRedisRuntimeControlBehaviourTests extends RuntimeControlBehaviourTests {

	WebFluxRedisRuntimeControlBehaviourTests() {
		super(Stack.WEBFLUX, Storage.REDIS);
	}

}
