package io.github.ratelimit.core;

import java.time.Instant;
import java.util.List;

import org.jspecify.annotations.Nullable;

import io.github.ratelimit.identity.Identity;
import io.github.ratelimit.policy.Classification;
import io.github.ratelimit.policy.Policy;

/**
 * The limiter's answer for one request: what to do and everything the response reports.
 *
 * @param outcome what was decided
 * @param identity who called
 * @param classification the endpoint group and cost
 * @param states every bandwidth of every policy that was checked, in policy order
 * @param binding the state reported in {@code RateLimit} and named as the reason: on
 * rejection the violated bandwidth with the longest wait (ties: org, user, token, ip);
 * otherwise the one closest to exhaustion. {@code null} when no policy was checked.
 * @param retryAfterSeconds on {@link Outcome#REJECTED}, seconds until the request could
 * pass; on {@link Outcome#BANNED}, seconds until the ban ends (at least 1); otherwise 0
 * @param blockedBy on {@link Outcome#BLOCKED}, the policy whose limit is {@code 0};
 * otherwise {@code null}
 * @param decidedAt when it was decided
 * @param warnings the states a {@code RateLimit-Warning} names: past their policy's
 * {@code warn-at}, or short under a policy in {@link io.github.ratelimit.policy.Mode#WARN
 * warn} mode
 * @param observed the states that would have refused the request under a policy in
 * {@link io.github.ratelimit.policy.Mode#OBSERVE observe} mode; never shown in the
 * response
 * @param waitMillis how long the admitted request waits for its tokens before it proceeds
 * (0: at once)
 * @param completion what the request gives back when its wait and its response are over
 */
public record Decision(Outcome outcome, Identity identity, Classification classification, List<PolicyState> states,
		@Nullable PolicyState binding, long retryAfterSeconds, @Nullable Policy blockedBy, Instant decidedAt,
		List<Warning> warnings, List<PolicyState> observed, long waitMillis, Completion completion) {

	public Decision(Outcome outcome, Identity identity, Classification classification, List<PolicyState> states,
			@Nullable PolicyState binding, long retryAfterSeconds, @Nullable Policy blockedBy, Instant decidedAt) {
		this(outcome, identity, classification, states, binding, retryAfterSeconds, blockedBy, decidedAt, List.of(),
				List.of(), 0, Completion.NONE);
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

	/** Whether a policy in observe or warn mode would have refused the request. */
	public boolean wouldHaveBeenRefused() {
		if (!this.observed.isEmpty()) {
			return true;
		}
		for (Warning warning : this.warnings) {
			if (warning.overLimit()) {
				return true;
			}
		}
		return false;
	}

	/** The names of the violated bandwidths, binding first. */
	public List<String> violatedPolicies() {
		if (this.binding == null || !this.binding.violated()) {
			return List.of();
		}
		return java.util.stream.Stream
			.concat(java.util.stream.Stream.of(this.binding),
					this.states.stream().filter((state) -> state.violated() && state != this.binding))
			.map(PolicyState::name)
			.distinct()
			.toList();
	}

	/** Whether the response should carry rate-limit headers. */
	public boolean hasLimits() {
		return this.binding != null;
	}

}
