package io.github.ratelimit.behaviour;

/**
 * The CORS suite on Spring MVC, CORS configured with a {@code CorsFilter} bean around an
 * inline source.
 */
class MvcCorsFilterBehaviourTests extends CorsBehaviourTests {

	MvcCorsFilterBehaviourTests() {
		super(CorsStyle.MVC_CORS_FILTER);
	}

}
