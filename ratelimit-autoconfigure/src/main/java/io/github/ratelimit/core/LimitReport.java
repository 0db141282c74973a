package io.github.ratelimit.core;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * What the limits a decision checked report to the client: the state of every bandwidth,
 * the binding one that {@code RateLimit} names, and the warnings. Written into the
 * response's headers whatever the outcome.
 *
 * @param states every bandwidth of every policy that was checked, in policy order
 * (policies in observe mode left out)
 * @param binding the state reported in {@code RateLimit} and named as the reason: on
 * rejection the violated bandwidth with the longest wait (ties: org, user, token, ip);
 * otherwise the one closest to exhaustion. {@code null} when no shown limit was checked.
 * @param warnings the states a {@code RateLimit-Warning} names: past their policy's
 * {@code warn-at}, or short under a policy in {@link io.github.ratelimit.policy.Mode#WARN
 * warn} mode
 */
public record LimitReport(List<PolicyState> states, @Nullable PolicyState binding, List<Warning> warnings) {

	/**
	 * The report of a decision that checked no limit: no rate-limit header is written.
	 */
	public static final LimitReport NONE = new LimitReport(List.of(), null, List.of());

	/**
	 * A report without warnings.
	 * @param states every bandwidth checked
	 * @param binding the binding state
	 */
	public LimitReport(List<PolicyState> states, @Nullable PolicyState binding) {
		this(states, binding, List.of());
	}

	/**
	 * A state a warning names.
	 *
	 * @param state the state
	 * @param overLimit {@code true} when the request exceeded the limit (warn mode),
	 * {@code false} when it is only past the soft limit
	 */
	public record Warning(PolicyState state, boolean overLimit) {
	}

}
