package io.github.ratelimit.core.status;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import io.github.ratelimit.identity.Identity;

/**
 * Where a caller stands: who the limiter takes it for and its budgets in every endpoint
 * group, read at one moment.
 *
 * @param identity the caller as the limiter identifies it (with the tier an allow rule
 * gives it)
 * @param readAt when the store was read
 * @param groups every endpoint group ({@code default} included), in configuration order
 */
public record CallerStanding(Identity identity, Instant readAt, Map<String, GroupStanding> groups) {

	public CallerStanding {
		groups = Collections.unmodifiableMap(new LinkedHashMap<>(groups));
	}

}
