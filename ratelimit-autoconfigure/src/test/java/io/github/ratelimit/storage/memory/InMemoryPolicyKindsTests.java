package io.github.ratelimit.storage.memory;

import java.time.Instant;

import io.github.ratelimit.storage.PolicyKindsStoreContractTests;
import io.github.ratelimit.storage.RateLimitStore;
import io.github.ratelimit.test.ManualTimeMeter;

/**
 * The memory store against the contract of the policy kinds, on a clock the test moves.
 */
class InMemoryPolicyKindsTests extends PolicyKindsStoreContractTests {

	private final ManualTimeMeter clock = new ManualTimeMeter(Instant.EPOCH);

	@Override
	protected RateLimitStore newStore() {
		return new InMemoryRateLimitStore(1000, this.clock, this.clock);
	}

	@Override
	protected void setTime(Instant instant) {
		this.clock.set(instant);
	}

}
