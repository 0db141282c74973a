package io.github.ratelimit.control;

import java.util.List;

/**
 * What operators set at runtime, as a store holds it: small, written by hand, read whole
 * when it changes. Bans are not in it (callers can grow them): they travel as
 * {@link BanChanges}.
 *
 * @param overrides the limit overrides
 * @param rules the allow and deny rules set at runtime (configured ones are not in the
 * store)
 */
public record ControlState(List<LimitOverride> overrides, List<AccessRule> rules) {

	/** Nothing set. */
	public static final ControlState EMPTY = new ControlState(List.of(), List.of());

	public ControlState {
		overrides = List.copyOf(overrides);
		rules = List.copyOf(rules);
	}

}
