package io.github.ratelimit.behaviour;

/**
 * The request lifecycle on Netty with permits as leases in Redis (script strategy,
 * default timeout).
 */
class WebFluxRedisRequestLifecycleBehaviourTests extends WebFluxRequestLifecycleBehaviourTests {

	@Override
	protected boolean redis() {
		return true;
	}

}
