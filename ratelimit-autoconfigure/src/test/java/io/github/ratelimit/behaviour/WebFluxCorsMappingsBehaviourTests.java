package io.github.ratelimit.behaviour;

/**
 * The CORS suite on WebFlux, CORS configured with
 * {@code WebFluxConfigurer.addCorsMappings}.
 */
class WebFluxCorsMappingsBehaviourTests extends CorsBehaviourTests {

	WebFluxCorsMappingsBehaviourTests() {
		super(CorsStyle.WEBFLUX_CORS_MAPPINGS);
	}

}
