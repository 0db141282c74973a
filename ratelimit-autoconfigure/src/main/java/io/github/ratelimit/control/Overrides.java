package io.github.ratelimit.control;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

import org.jspecify.annotations.Nullable;

import io.github.ratelimit.identity.Identity;
import io.github.ratelimit.policy.Classification;
import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.LimitParser;
import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.policy.PolicyTable;

/**
 * The overrides in force, compiled for the request path: dimension, then id, then group.
 * Groups mean what they mean in a tier: for a request of group {@code G}, an identity's
 * override for {@code G} replaces what its tier gives that dimension; an override for
 * {@code default} replaces the tier's {@code default} limit, so it applies to the groups
 * the tier gives no limit of their own (and counts in the same buckets); an override for
 * {@code all} replaces the tier-wide quota. The per-IP backstop, handler limits and group
 * concurrency caps stay.
 */
final class Overrides {

	static final Overrides NONE = new Overrides(Map.of());

	private final Map<Dimension, Map<String, Map<String, Timed>>> byDimension;

	private Overrides(Map<Dimension, Map<String, Map<String, Timed>>> byDimension) {
		this.byDimension = byDimension;
	}

	/**
	 * Compiles overrides against a table. An override that cannot apply (its group was
	 * removed from the configuration, or the store holds something no check let through)
	 * is skipped and reported to {@code invalid}: one bad record must never keep the
	 * others, or later changes, from applying.
	 */
	static Overrides compile(List<LimitOverride> overrides, PolicyTable table,
			BiConsumer<LimitOverride, RuntimeException> invalid) {
		if (overrides.isEmpty()) {
			return NONE;
		}
		Map<Dimension, Map<String, Map<String, Timed>>> byDimension = new EnumMap<>(Dimension.class);
		for (LimitOverride override : overrides) {
			Policy policy;
			long expiresAt;
			try {
				policy = table.overridePolicy(override.dimension(), override.group(),
						LimitParser.parse(override.limit()));
				expiresAt = (override.expiresAt() != null) ? ControlInput.epochMillis(override.expiresAt())
						: Long.MAX_VALUE;
			}
			catch (RuntimeException ex) {
				invalid.accept(override, ex);
				continue;
			}
			byDimension.computeIfAbsent(override.dimension(), (key) -> new HashMap<>())
				.computeIfAbsent(override.id(), (key) -> new HashMap<>())
				.put(override.group(), new Timed(policy, expiresAt));
		}
		return new Overrides(byDimension);
	}

	boolean isEmpty() {
		return this.byDimension.isEmpty();
	}

	/**
	 * The policies of a request with the caller's overrides in place of its tier's
	 * limits.
	 */
	List<Policy> apply(List<Policy> policies, Identity identity, String group, long nowMillis) {
		List<Policy> result = null;
		for (Map.Entry<Dimension, Map<String, Map<String, Timed>>> entry : this.byDimension.entrySet()) {
			Dimension dimension = entry.getKey();
			String id = identity.idFor(dimension);
			Map<String, Timed> byGroup = (id != null) ? entry.getValue().get(id) : null;
			if (byGroup == null) {
				continue;
			}
			Policy groupPolicy = live(byGroup.get(group), nowMillis);
			if (groupPolicy == null && !hasOwnGroupLimit(policies, dimension)) {
				groupPolicy = live(byGroup.get(Classification.DEFAULT_GROUP), nowMillis);
			}
			Policy allPolicy = live(byGroup.get(Policy.ALL_GROUPS), nowMillis);
			if (groupPolicy == null && allPolicy == null) {
				continue;
			}
			if (result == null) {
				result = new ArrayList<>(policies);
			}
			if (groupPolicy != null) {
				result
					.removeIf((policy) -> isTierLimit(policy, dimension) && !Policy.ALL_GROUPS.equals(policy.group()));
				result.add(groupPolicy);
			}
			if (allPolicy != null) {
				result.removeIf((policy) -> isTierLimit(policy, dimension) && Policy.ALL_GROUPS.equals(policy.group()));
				result.add(allPolicy);
			}
		}
		return (result != null) ? result : policies;
	}

	/** The live override policies of one identity in one dimension, by group. */
	Map<String, Policy> of(Dimension dimension, String id, long nowMillis) {
		Map<String, Timed> byGroup = this.byDimension.getOrDefault(dimension, Map.of()).getOrDefault(id, Map.of());
		Map<String, Policy> live = new HashMap<>();
		byGroup.forEach((group, timed) -> {
			Policy policy = live(timed, nowMillis);
			if (policy != null) {
				live.put(group, policy);
			}
		});
		return live;
	}

	// whether the tier gives the request's group a limit of its own in this dimension
	// (not through default)
	private static boolean hasOwnGroupLimit(List<Policy> policies, Dimension dimension) {
		for (Policy policy : policies) {
			if (isTierLimit(policy, dimension) && !Policy.ALL_GROUPS.equals(policy.group())
					&& !Classification.DEFAULT_GROUP.equals(policy.group())) {
				return true;
			}
		}
		return false;
	}

	private static boolean isTierLimit(Policy policy, Dimension dimension) {
		return policy.dimension() == dimension && policy.scope().tierLimit();
	}

	private static @Nullable Policy live(@Nullable Timed timed, long nowMillis) {
		return (timed != null && timed.expiresAt > nowMillis) ? timed.policy : null;
	}

	private record Timed(Policy policy, long expiresAt) {
	}

}
