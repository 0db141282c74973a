package io.github.ratelimit.behaviour;

/**
 * Refused slow bodies on Spring MVC (Tomcat).
 */
class MvcSlowBodyRefusalTests extends SlowBodyRefusalTests {

	MvcSlowBodyRefusalTests() {
		super(Stack.MVC);
	}

}
