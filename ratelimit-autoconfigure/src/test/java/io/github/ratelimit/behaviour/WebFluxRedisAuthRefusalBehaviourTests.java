package io.github.ratelimit.behaviour;

/**
 * Spring Security's refusals counted by a failures-only limit, on WebFlux with buckets in
 * Redis.
 */
class WebFluxRedisAuthRefusalBehaviourTests extends AuthRefusalBehaviourTests {

	WebFluxRedisAuthRefusalBehaviourTests() {
		super(Stack.WEBFLUX, Storage.REDIS);
	}

}
