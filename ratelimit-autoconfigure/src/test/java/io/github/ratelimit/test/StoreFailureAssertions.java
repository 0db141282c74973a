package io.github.ratelimit.test;

import io.github.ratelimit.core.RateLimiter;
import io.github.ratelimit.storage.StoreUnavailableException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * For exactness tests: a count that holds only because some decisions silently took the
 * failure mode proves nothing, so they also assert that none did.
 */
public final class StoreFailureAssertions {

	private StoreFailureAssertions() {
	}

	/**
	 * Asserts that the store failed none of the limiter's decisions, of any kind.
	 * @param limiter the limiter whose decisions are checked
	 */
	public static void assertNoDecisionFellBack(RateLimiter limiter) {
		for (StoreUnavailableException.Kind kind : StoreUnavailableException.Kind.values()) {
			assertThat(limiter.storeFailures().count(kind)).as("decisions the store failed with %s", kind).isZero();
		}
	}

}
