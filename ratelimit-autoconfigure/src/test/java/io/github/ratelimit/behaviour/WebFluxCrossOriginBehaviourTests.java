package io.github.ratelimit.behaviour;

/**
 * The CORS suite on WebFlux, CORS configured with {@code @CrossOrigin}.
 */
class WebFluxCrossOriginBehaviourTests extends CorsBehaviourTests {

	WebFluxCrossOriginBehaviourTests() {
		super(CorsStyle.WEBFLUX_CROSS_ORIGIN);
	}

}
