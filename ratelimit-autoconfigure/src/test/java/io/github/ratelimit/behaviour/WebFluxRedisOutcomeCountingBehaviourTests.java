package io.github.ratelimit.behaviour;

/**
 * The outcome-counting suite on WebFlux with buckets in Redis (script strategy).
 */
class WebFluxRedisOutcomeCountingBehaviourTests extends OutcomeCountingBehaviourTests {

	WebFluxRedisOutcomeCountingBehaviourTests() {
		super(Stack.WEBFLUX, Storage.REDIS);
	}

}
