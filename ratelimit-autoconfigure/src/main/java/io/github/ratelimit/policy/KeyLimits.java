package io.github.ratelimit.policy;

import java.util.Map;

/**
 * The limits counted per value of keys of the application's choosing
 * ({@link Dimension#KEY}), as the configuration sets them: per tier
 * ({@code ratelimit.tiers.<tier>.keys.<key>.<group>}) and for every tier
 * ({@code ratelimit.keys.<key>.limits.<group>}).
 *
 * @param tiers tier, then key, then group (or {@code default}, or
 * {@value Policy#ALL_GROUPS} for a quota over every request of the tier), then limit
 * @param everyTier key, then group (or {@code default}), then limit
 */
public record KeyLimits(Map<String, Map<String, Map<String, Limit>>> tiers, Map<String, Map<String, Limit>> everyTier) {

	/** No limit by key. */
	public static final KeyLimits NONE = new KeyLimits(Map.of(), Map.of());

	public KeyLimits {
		tiers = Map.copyOf(tiers);
		everyTier = Map.copyOf(everyTier);
	}

	/**
	 * Whether a key's name is plain (as a tier's: letters, digits, {@code .}, {@code _}
	 * and {@code -}, at most 64) and none of the dimensions' ({@code user}, {@code org},
	 * {@code token}, {@code ip}, {@code service}, {@code key}, {@code account}), which
	 * name policies and {@code @RateLimited(per)} values as keys do.
	 */
	public static boolean isValidKeyName(String key) {
		if (!PolicyTable.isValidName(key)) {
			return false;
		}
		for (Dimension dimension : Dimension.values()) {
			if (dimension.key().equalsIgnoreCase(key)) {
				return false;
			}
		}
		return true;
	}

	/** Whether some limit of a key is declared for {@code group} itself. */
	public boolean declares(String group) {
		return this.everyTier.values().stream().anyMatch((limits) -> limits.containsKey(group)) || this.tiers.values()
			.stream()
			.flatMap((keys) -> keys.values().stream())
			.anyMatch((limits) -> limits.containsKey(group));
	}

}
