package io.github.ratelimit.behaviour;

/**
 * The limiter's own refusals and the gate's reservation, on WebFlux in memory.
 */
class WebFluxLimiterRefusalBehaviourTests extends LimiterRefusalBehaviourTests {

	WebFluxLimiterRefusalBehaviourTests() {
		super(Stack.WEBFLUX);
	}

}
