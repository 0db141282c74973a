package io.github.ratelimit.behaviour;

/**
 * The CORS suite on Spring MVC, CORS configured with Spring Security's {@code cors()}.
 */
class MvcSecurityCorsBehaviourTests extends CorsBehaviourTests {

	MvcSecurityCorsBehaviourTests() {
		super(CorsStyle.MVC_SECURITY);
	}

}
