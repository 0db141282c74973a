package io.github.ratelimit.behaviour;

/**
 * Two instances under a burst, on WebFlux.
 */
class WebFluxTwoInstancesBurstTests extends TwoInstancesBurstTests {

	WebFluxTwoInstancesBurstTests() {
		super(Stack.WEBFLUX);
	}

}
