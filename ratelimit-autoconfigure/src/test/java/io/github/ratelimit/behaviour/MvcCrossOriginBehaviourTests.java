package io.github.ratelimit.behaviour;

/**
 * The CORS suite on Spring MVC, CORS configured with {@code @CrossOrigin}.
 */
class MvcCrossOriginBehaviourTests extends CorsBehaviourTests {

	MvcCrossOriginBehaviourTests() {
		super(CorsStyle.MVC_CROSS_ORIGIN);
	}

}
