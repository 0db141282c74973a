package io.github.ratelimit.behaviour;

/**
 * Spring Security's refusals counted by a failures-only limit, on WebFlux with buckets in
 * memory.
 */
class WebFluxMemoryAuthRefusalBehaviourTests extends AuthRefusalBehaviourTests {

	WebFluxMemoryAuthRefusalBehaviourTests() {
		super(Stack.WEBFLUX, Storage.MEMORY);
	}

}
