package io.github.ratelimit.core;

import io.github.ratelimit.policy.Classification;

import io.github.ratelimit.identity.Identity;

import java.time.Instant;
import java.util.List;

import org.jspecify.annotations.Nullable;

import io.github.ratelimit.policy.Policy;

/**
 * The limiter's answer for one request: what to do and everything the response reports.
 *
 * @param outcome what was decided
 * @param identity who called
 * @param classification the endpoint group and cost
 * @param states every bandwidth of every policy that was checked, in policy order
 * @param binding the state reported in {@code RateLimit} and named as the reason: on rejection the
 * violated bandwidth with the longest wait (ties: org, user, token, ip); otherwise the one closest to
 * exhaustion. {@code null} when no policy was checked.
 * @param retryAfterSeconds on {@link Outcome#REJECTED}, seconds until the request could pass (at least
 * 1); otherwise 0
 * @param blockedBy on {@link Outcome#BLOCKED}, the policy whose limit is {@code 0}; otherwise {@code null}
 * @param decidedAt when it was decided
 */
public record Decision(Outcome outcome, Identity identity, Classification classification, List<PolicyState> states,
		@Nullable PolicyState binding, long retryAfterSeconds, @Nullable Policy blockedBy, Instant decidedAt) {

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
