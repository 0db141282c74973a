package io.github.ratelimit.behaviour;

/**
 * The custom-key suite on WebFlux with buckets in Redis (script strategy).
 */
class WebFluxRedisCustomKeyBehaviourTests extends CustomKeyBehaviourTests {

	WebFluxRedisCustomKeyBehaviourTests() {
		super(Stack.WEBFLUX, Storage.REDIS);
	}

}
