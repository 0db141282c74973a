package io.github.ratelimit.behaviour;

/**
 * The country and reputation suite on Spring MVC with buckets in memory.
 */
class MvcMemoryGeoAndReputationBehaviourTests extends GeoAndReputationBehaviourTests {

	MvcMemoryGeoAndReputationBehaviourTests() {
		super(Stack.MVC, Storage.MEMORY);
	}

}
