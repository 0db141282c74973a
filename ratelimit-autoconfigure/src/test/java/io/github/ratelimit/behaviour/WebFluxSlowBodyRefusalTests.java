package io.github.ratelimit.behaviour;

/**
 * Refused slow bodies on WebFlux (Netty).
 */
class WebFluxSlowBodyRefusalTests extends SlowBodyRefusalTests {

	WebFluxSlowBodyRefusalTests() {
		super(Stack.WEBFLUX);
	}

}
