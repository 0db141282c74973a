package io.github.ratelimit.control;

import org.jspecify.annotations.Nullable;

/**
 * What the access rules say about a caller.
 *
 * @param rule the rule that decided, or {@code null} when none names the caller
 */
public record AccessVerdict(@Nullable AccessRule rule) {

	/** No rule names the caller: its limits apply. */
	public static final AccessVerdict NONE = new AccessVerdict(null);

	/** Whether a deny rule names the caller. */
	public boolean denied() {
		return this.rule != null && this.rule.access() == AccessRule.Access.DENY;
	}

	/** Whether an allow rule without a tier names the caller: no limit applies. */
	public boolean bypasses() {
		return this.rule != null && this.rule.access() == AccessRule.Access.ALLOW && this.rule.tier() == null;
	}

	/** The tier an allow rule gives the caller, or {@code null}. */
	public @Nullable String tier() {
		return (this.rule != null) ? this.rule.tier() : null;
	}

}
