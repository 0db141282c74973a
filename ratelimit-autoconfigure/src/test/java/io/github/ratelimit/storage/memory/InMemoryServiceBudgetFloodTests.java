package io.github.ratelimit.storage.memory;

import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.github.ratelimit.identity.Identity;
import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.LimitParser;
import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.policy.PolicyScope;
import io.github.ratelimit.storage.LimitCheck;
import io.github.ratelimit.storage.StoreKeys;
import io.github.ratelimit.test.ManualTimeMeter;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A budget of the service is no unverified caller's: a flood of new client addresses,
 * each spending from it, far past the address bound, leaves it exactly as spent (an
 * evicted bucket would come back full).
 */
class InMemoryServiceBudgetFloodTests {

	private static final StoreKeys KEYS = new StoreKeys("rl:");

	private final ManualTimeMeter clock = new ManualTimeMeter(Instant.parse("2030-06-10T12:00:00Z"));

	private final InMemoryRateLimitStore store = new InMemoryRateLimitStore(100, 50, this.clock, this.clock);

	@Test
	void aFloodOfAddressesNeverEvictsTheServicesBudget() {
		Policy service = new Policy(PolicyScope.SERVICE, Dimension.SERVICE, "export", LimitParser.parse("100000/1h"));
		Policy anonymous = new Policy("anonymous", Dimension.IP, "default", LimitParser.parse("60/1m"));
		LimitCheck budget = LimitCheck.enforced(service, KEYS.key(service, Identity.SERVICE_ID), 1);
		for (int i = 0; i < 20_000; i++) {
			String address = "2001:db8:7:" + Integer.toHexString(i) + "::/64";
			LimitCheck own = LimitCheck.enforced(anonymous, KEYS.key(anonymous, address), 1);
			assertThat(this.store.decide(List.of(own, budget)).admitted()).isTrue();
		}
		this.store.cleanUp();
		assertThat(this.store.inspect(List.of(budget)).get(0).bandwidths().get(0).remaining())
			.isEqualTo(100_000 - 20_000);
		assertThat(this.store.addressSize()).isLessThanOrEqualTo(100);
		assertThat(this.store.identifiedSize()).isOne();
		assertThat(this.store.identifiedEvictions()).isZero();
	}

}
