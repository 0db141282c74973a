package io.github.ratelimit.web;

import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.github.ratelimit.core.RateLimiter;
import io.github.ratelimit.identity.ClientIpResolver;
import io.github.ratelimit.identity.Identifier;
import io.github.ratelimit.policy.CountedResponses;
import io.github.ratelimit.policy.Mode;
import io.github.ratelimit.policy.PolicyOptions;
import io.github.ratelimit.policy.PolicyOptions.GroupOptions;
import io.github.ratelimit.policy.PolicyOptions.Tuning;
import io.github.ratelimit.policy.PolicyTable;
import io.github.ratelimit.storage.RateLimitStore;

/** Limiters for the lifecycle tests of the web filters. */
public final class LifecycleLimiters {

	private LifecycleLimiters() {
	}

	/**
	 * A limiter of anonymous callers by address, with a limit no test reaches
	 * ({@code 1000/1m}) and a {@code max-wait} of 10s in the default group, so a request
	 * told to wait holds a waiting slot.
	 * @param store the store
	 * @return the limiter
	 */
	public static RateLimiter generous(RateLimitStore store) {
		return generous(store, CountedResponses.ALL);
	}

	/**
	 * Like {@link #generous(RateLimitStore)}, with a limit that counts only failed
	 * responses (4xx, 5xx): an admitted request's token goes back to the store when its
	 * status is another.
	 * @param store the store
	 * @return the limiter
	 */
	public static RateLimiter countingFailures(RateLimitStore store) {
		return generous(store, CountedResponses.FAILURES);
	}

	private static RateLimiter generous(RateLimitStore store, CountedResponses counts) {
		PolicyOptions options = new PolicyOptions(ZoneOffset.UTC, Mode.ENFORCE, 0, Map.of(),
				Map.of("default", new GroupOptions(new Tuning(null, null), 0, Duration.ofSeconds(10), counts)));
		PolicyTable policies = PolicyTable.build(Map.of("anonymous", Map.of("ip", Map.of("default", "1000/1m"))),
				Map.of(), Set.of(), options);
		Identifier identifier = new Identifier(List.of(), new ClientIpResolver(List.of(), 32, 64), policies.tiers(),
				"anonymous", "anonymous");
		return RateLimiter.builder(identifier, store).policies(policies).build();
	}

}
