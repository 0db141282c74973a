package io.github.ratelimit.behaviour;

/**
 * The limit-kinds suite on WebFlux with buckets in Redis (script strategy), two instances
 * sharing one Redis.
 */
class WebFluxRedisLimitKindsBehaviourTests extends LimitKindsBehaviourTests {

	WebFluxRedisLimitKindsBehaviourTests() {
		super(Stack.WEBFLUX, Storage.REDIS);
	}

}
