package io.github.ratelimit.behaviour;

/**
 * The client side against a server on WebFlux with buckets in memory.
 */
class WebFluxMemoryClientAgainstServerBehaviourTests extends ClientAgainstServerBehaviourTests {

	WebFluxMemoryClientAgainstServerBehaviourTests() {
		super(Stack.WEBFLUX, Storage.MEMORY);
	}

}
