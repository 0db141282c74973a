package io.github.ratelimit.behaviour;

/**
 * Failed-login protection with its defaults, on WebFlux with buckets in memory.
 */
class WebFluxMemoryLoginProtectionBehaviourTests extends LoginProtectionBehaviourTests {

	WebFluxMemoryLoginProtectionBehaviourTests() {
		super(Stack.WEBFLUX, Storage.MEMORY);
	}

}
