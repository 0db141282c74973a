package io.github.ratelimit.behaviour;

/**
 * The request lifecycle on Tomcat with permits as leases in Redis (script strategy,
 * default timeout).
 */
class MvcRedisRequestLifecycleBehaviourTests extends MvcRequestLifecycleBehaviourTests {

	@Override
	protected boolean redis() {
		return true;
	}

}
