package io.github.ratelimit.behaviour;

/**
 * Two instances under a burst, on Spring MVC.
 */
class MvcTwoInstancesBurstTests extends TwoInstancesBurstTests {

	MvcTwoInstancesBurstTests() {
		super(Stack.MVC);
	}

}
