package io.github.ratelimit.behaviour;

/**
 * Failed-login protection with its defaults, on WebFlux with buckets in Redis.
 */
class WebFluxRedisLoginProtectionBehaviourTests extends LoginProtectionBehaviourTests {

	WebFluxRedisLoginProtectionBehaviourTests() {
		super(Stack.WEBFLUX, Storage.REDIS);
	}

}
