package io.github.ratelimit.behaviour;

/**
 * The country and reputation suite on Spring MVC with buckets in Redis: the screens never
 * ask the store, and the requests they let through are decided there as before.
 */
class MvcRedisGeoAndReputationBehaviourTests extends GeoAndReputationBehaviourTests {

	MvcRedisGeoAndReputationBehaviourTests() {
		super(Stack.MVC, Storage.REDIS);
	}

}
