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
 * @param keys the ids the caller's request gave the keys of limits it is counted by
 * ({@code ratelimit.keys.<key>}), by key name; empty without any
 */
public record CallerStanding(Identity identity, Instant readAt, Map<String, GroupStanding> groups,
		Map<String, String> keys) {

	public CallerStanding {
		groups = Collections.unmodifiableMap(new LinkedHashMap<>(groups));
		keys = Collections.unmodifiableMap(new LinkedHashMap<>(keys));
	}

	/** A standing read without keys. */
	public CallerStanding(Identity identity, Instant readAt, Map<String, GroupStanding> groups) {
		this(identity, readAt, groups, Map.of());
	}

}
