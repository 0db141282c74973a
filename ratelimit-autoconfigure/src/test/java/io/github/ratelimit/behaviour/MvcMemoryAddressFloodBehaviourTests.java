package io.github.ratelimit.behaviour;

/**
 * The address flood suite on Spring MVC with buckets in memory.
 */
class MvcMemoryAddressFloodBehaviourTests extends AddressFloodBehaviourTests {

	MvcMemoryAddressFloodBehaviourTests() {
		super(Stack.MVC);
	}

}
