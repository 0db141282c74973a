package io.github.ratelimit.behaviour;

/**
 * The address flood suite on WebFlux with buckets in memory.
 */
class WebFluxMemoryAddressFloodBehaviourTests extends AddressFloodBehaviourTests {

	WebFluxMemoryAddressFloodBehaviourTests() {
		super(Stack.WEBFLUX);
	}

}
