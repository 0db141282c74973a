package io.github.ratelimit.control;

import java.util.List;
import java.util.Map;

/**
 * Everything set at runtime, as a store holds it.
 *
 * @param overrides the limit overrides
 * @param rules the allow and deny rules set at runtime (configured ones are not in the store)
 * @param bans the active bans by subject
 */
public record ControlState(List<LimitOverride> overrides, List<AccessRule> rules, Map<String, Ban> bans) {

	/** Nothing set. */
	public static final ControlState EMPTY = new ControlState(List.of(), List.of(), Map.of());

	public ControlState {
		overrides = List.copyOf(overrides);
		rules = List.copyOf(rules);
		bans = Map.copyOf(bans);
	}

}
