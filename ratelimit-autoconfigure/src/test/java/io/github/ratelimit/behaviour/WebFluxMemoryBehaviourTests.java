package io.github.ratelimit.behaviour;

/**
 * The behavioural suite on WebFlux (Netty), with buckets in memory.
 */
class WebFluxMemoryBehaviourTests extends RateLimitBehaviourTests {

	WebFluxMemoryBehaviourTests() {
		super(Stack.WEBFLUX, Storage.MEMORY);
	}

}
