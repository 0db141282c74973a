package io.github.ratelimit.behaviour;

/**
 * The country and reputation suite on WebFlux with buckets in memory.
 */
class WebFluxMemoryGeoAndReputationBehaviourTests extends GeoAndReputationBehaviourTests {

	WebFluxMemoryGeoAndReputationBehaviourTests() {
		super(Stack.WEBFLUX, Storage.MEMORY);
	}

}
