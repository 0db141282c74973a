package io.github.ratelimit.behaviour;

/**
 * The CORS suite on WebFlux, CORS configured with Spring Security's {@code cors()}.
 */
class WebFluxSecurityCorsBehaviourTests extends CorsBehaviourTests {

	WebFluxSecurityCorsBehaviourTests() {
		super(CorsStyle.WEBFLUX_SECURITY);
	}

}
