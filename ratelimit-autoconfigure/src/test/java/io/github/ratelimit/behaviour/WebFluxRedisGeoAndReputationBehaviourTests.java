package io.github.ratelimit.behaviour;

/**
 * The country and reputation suite on WebFlux with buckets in Redis: the screens never
 * ask the store, and the requests they let through are decided there as before.
 */
class WebFluxRedisGeoAndReputationBehaviourTests extends GeoAndReputationBehaviourTests {

	WebFluxRedisGeoAndReputationBehaviourTests() {
		super(Stack.WEBFLUX, Storage.REDIS);
	}

}
