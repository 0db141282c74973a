package io.github.ratelimit.behaviour;

/**
 * The CORS suite on WebFlux, CORS configured with a {@code CorsWebFilter} bean around an
 * inline source.
 */
class WebFluxCorsWebFilterBehaviourTests extends CorsBehaviourTests {

	WebFluxCorsWebFilterBehaviourTests() {
		super(CorsStyle.WEBFLUX_CORS_WEB_FILTER);
	}

}
