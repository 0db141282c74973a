package io.github.ratelimit.policy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

import org.jspecify.annotations.Nullable;

/**
 * The policies of {@link KeyLimits}, built once: a tier's are named
 * {@code <tier>-<key>-<group>}, those for every tier {@code backstop-<key>-<group>} (as
 * the per-IP backstop's, they apply whatever the caller's tier).
 */
final class KeyedPolicies {

	static final KeyedPolicies NONE = new KeyedPolicies(Map.of(), Map.of());

	/** Tier, then key, then group. */
	private final Map<String, Map<String, Map<String, Policy>>> tiers;

	/** Key, then group. */
	private final Map<String, Map<String, Policy>> everyTier;

	private KeyedPolicies(Map<String, Map<String, Map<String, Policy>>> tiers,
			Map<String, Map<String, Policy>> everyTier) {
		this.tiers = tiers;
		this.everyTier = everyTier;
	}

	/**
	 * Builds the policies.
	 * @param limits the limits
	 * @param policies builds the policies of one tier (or scope) and key from its limits
	 * by group
	 */
	static KeyedPolicies of(KeyLimits limits, PolicyBuilder policies) {
		if (limits.tiers().isEmpty() && limits.everyTier().isEmpty()) {
			return NONE;
		}
		Map<String, Map<String, Map<String, Policy>>> tiers = new LinkedHashMap<>();
		limits.tiers().forEach((tier, keys) -> {
			Map<String, Map<String, Policy>> byKey = new LinkedHashMap<>();
			keys.forEach(
					(key, byGroup) -> byKey.put(checkedKey(key), policies.build(PolicyScope.TIER, tier, key, byGroup)));
			tiers.put(tier, byKey);
		});
		Map<String, Map<String, Policy>> everyTier = new LinkedHashMap<>();
		limits.everyTier()
			.forEach((key, byGroup) -> everyTier.put(checkedKey(key),
					policies.build(PolicyScope.BACKSTOP, PolicyScope.BACKSTOP.tierName(), key, byGroup)));
		return new KeyedPolicies(tiers, everyTier);
	}

	private static String checkedKey(String key) {
		if (!KeyLimits.isValidKeyName(key)) {
			throw new IllegalArgumentException(
					"invalid key name '" + key + "': letters, digits, '.', '_' and '-' (at most 64), and none of "
							+ Dimension.class.getSimpleName() + "'s names (user, org, token, ip, service)");
		}
		return key;
	}

	/**
	 * Adds the policies of the keys for a request of {@code tier} in {@code group}: each
	 * key's limit for the group (or {@code default}) and its quota over every group, the
	 * tier's first, then those of every tier.
	 */
	void addTo(List<Policy> policies, String tier, String group, BiFunction<Policy, String, Policy> inherited) {
		Map<String, Map<String, Policy>> ofTier = this.tiers.get(tier);
		if (ofTier != null) {
			addTo(policies, ofTier, group, inherited);
		}
		addTo(policies, this.everyTier, group, inherited);
	}

	private static void addTo(List<Policy> policies, Map<String, Map<String, Policy>> byKey, String group,
			BiFunction<Policy, String, Policy> inherited) {
		for (Map<String, Policy> byGroup : byKey.values()) {
			Policy policy = pick(byGroup, group);
			if (policy != null) {
				policies.add(inherited.apply(policy, group));
			}
			Policy tierWide = byGroup.get(Policy.ALL_GROUPS);
			if (tierWide != null) {
				policies.add(tierWide);
			}
		}
	}

	private static @Nullable Policy pick(Map<String, Policy> byGroup, String group) {
		Policy policy = byGroup.get(group);
		return (policy != null) ? policy : byGroup.get(Classification.DEFAULT_GROUP);
	}

	/** Builds the policies of one tier (or scope) and key. */
	@FunctionalInterface
	interface PolicyBuilder {

		Map<String, Policy> build(PolicyScope scope, String tier, String key, Map<String, Limit> limits);

	}

}
