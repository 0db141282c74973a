package io.github.ratelimit.behaviour;

/**
 * The CORS suite on Spring MVC, CORS configured with
 * {@code WebMvcConfigurer.addCorsMappings}.
 */
class MvcCorsMappingsBehaviourTests extends CorsBehaviourTests {

	MvcCorsMappingsBehaviourTests() {
		super(CorsStyle.MVC_CORS_MAPPINGS);
	}

}
