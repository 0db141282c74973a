package io.github.ratelimit.behaviour;

import org.springframework.boot.WebApplicationType;

/**
 * The web stacks the behavioural suite runs on.
 */
enum Stack {

	/** Spring MVC on Tomcat: the servlet filter. */
	MVC(MvcBehaviourApplication.class, WebApplicationType.SERVLET),

	/** WebFlux on Netty: the {@code WebFilter}, under BlockHound. */
	WEBFLUX(WebFluxBehaviourApplication.class, WebApplicationType.REACTIVE);

	private final Class<?> application;

	private final WebApplicationType type;

	Stack(Class<?> application, WebApplicationType type) {
		this.application = application;
		this.type = type;
	}

	Class<?> application() {
		return this.application;
	}

	WebApplicationType type() {
		return this.type;
	}

}
