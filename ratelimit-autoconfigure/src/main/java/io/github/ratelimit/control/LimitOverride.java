package io.github.ratelimit.control;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

import io.github.ratelimit.policy.Dimension;

/**
 * A limit set at runtime for one identity: it replaces, for that identity, the limit its
 * tier gives the dimension in one group, whatever the tier (so it survives a plan
 * change).
 *
 * @param dimension {@code user}, {@code org}, {@code token} (an API key) or {@code ip}
 * @param id the identity's id in that dimension (a token id for keys, the client address
 * group for ip)
 * @param group the endpoint group, {@code default} for every group the override names no
 * limit for, or {@code all} for a quota over every request
 * @param limit the limit string, as the properties take it
 * ({@code "500/1m, 100000/month"})
 * @param expiresAt when it ends; {@code null} for never
 */
public record LimitOverride(Dimension dimension, String id, String group, String limit, @Nullable Instant expiresAt) {

	/** Whether the override has ended at {@code nowMillis}. */
	public boolean expired(long nowMillis) {
		// saturated: an expiry beyond what milliseconds hold never comes (rather than
		// throwing)
		return this.expiresAt != null && ControlInput.epochMillis(this.expiresAt) <= nowMillis;
	}

}
