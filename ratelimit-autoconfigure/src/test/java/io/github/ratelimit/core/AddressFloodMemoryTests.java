package io.github.ratelimit.core;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.github.ratelimit.identity.ApiKey;
import io.github.ratelimit.identity.ApiKeyIdentityResolver;
import io.github.ratelimit.identity.ClientIpResolver;
import io.github.ratelimit.identity.Identifier;
import io.github.ratelimit.policy.Classification;
import io.github.ratelimit.policy.PolicyTable;
import io.github.ratelimit.storage.memory.InMemoryRateLimitStore;
import io.github.ratelimit.test.ManualTimeMeter;
import io.github.ratelimit.test.TestRequest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Anonymous traffic from one IPv6 /48, every /64 a new client, through the limiter into
 * the memory store sized by default for the 512 MB heap of the report (issue 17): the
 * premium org's monthly quota and a user's spent hour are exactly as they were
 * afterwards. Before the address buckets were bounded apart, the flood evicted the user's
 * bucket, which came back full: the user's next request was admitted.
 */
class AddressFloodMemoryTests {

	private static final long HEAP = 512L * 1024 * 1024;

	/** Rounds of the whole /48, as a flood of a minute makes: each /64 comes back. */
	private static final int ROUNDS = 6;

	@Test
	void aFloodFromOneSlash48LeavesTheOrgQuotaAndTheUsersSpentBudgetAsTheyWere() {
		ManualTimeMeter time = new ManualTimeMeter(Instant.parse("2026-03-10T10:00:00Z"));
		PolicyTable table = PolicyTable.build(
				Map.of("anonymous", Map.of("ip", Map.of("default", "60/1m, 600/1h", "auth", "50/1m, 500/1h")),
						"authenticated", Map.of("user", Map.of("default", "60/1h")), "premium",
						Map.of("user", Map.of("default", "1000/1m, 10000/1h"), "org",
								Map.of("default", "2000/1m, 20000/1h", "all", "100000/month"))),
				Map.of("default", "6000/1m"), Set.of("auth"));
		InMemoryRateLimitStore store = new InMemoryRateLimitStore(InMemoryRateLimitStore.defaultMaxKeys(HEAP),
				InMemoryRateLimitStore.defaultMaxIdentifiedKeys(HEAP), time, time);
		ApiKeyIdentityResolver keys = new ApiKeyIdentityResolver(
				List.of(ApiKey.ofKey("dana-key", "dana", null, "authenticated"),
						ApiKey.ofKey("paula-key", "paula", "acme", "premium")));
		RateLimiter limiter = RateLimiter
			.builder(new Identifier(List.of(keys), new ClientIpResolver(List.of(), 32, 64), table.tiers(), "anonymous",
					"authenticated"), store)
			.policies(table)
			.clock(time)
			.build();
		Classification byDefault = Classification.of("default", 1);
		Classification auth = Classification.of("auth", 1);
		TestRequest dana = TestRequest.from("192.0.2.10").header("X-API-Key", "dana-key");
		TestRequest paula = TestRequest.from("192.0.2.20").header("X-API-Key", "paula-key");
		for (int i = 0; i < 300; i++) {
			assertThat(limiter.decide(paula, byDefault).outcome()).isEqualTo(Outcome.ALLOWED);
		}
		for (int i = 0; i < 60; i++) {
			assertThat(limiter.decide(dana, byDefault).outcome()).isEqualTo(Outcome.ALLOWED);
		}
		assertThat(limiter.decide(dana, byDefault).outcome()).isEqualTo(Outcome.REJECTED);
		// 65,536 /64s on two groups and the backstop: about 196,000 address buckets, past
		// the default bound
		for (int round = 0; round < ROUNDS; round++) {
			for (int i = 0; i < 65_536; i++) {
				TestRequest stranger = TestRequest.from("2001:db8:4b1d:" + Integer.toHexString(i) + "::1");
				limiter.decide(stranger, byDefault);
				limiter.decide(stranger, auth);
			}
		}
		store.cleanUp();
		assertThat(store.addressSize()).isLessThanOrEqualTo(InMemoryRateLimitStore.defaultMaxKeys(HEAP));
		assertThat(limiter.decide(dana, byDefault).outcome()).as("the user's spent hour").isEqualTo(Outcome.REJECTED);
		Decision next = limiter.decide(paula, byDefault);
		assertThat(next.outcome()).isEqualTo(Outcome.ALLOWED);
		PolicyState quota = next.limits()
			.states()
			.stream()
			.filter((state) -> state.name().equals("premium-org-all"))
			.findFirst()
			.orElseThrow(() -> new AssertionError("no quota state in " + next.limits().states()));
		assertThat(quota.remaining()).as("the org's monthly quota").isEqualTo(100_000 - 301);
	}

}
