package io.github.ratelimit.policy;

import org.jspecify.annotations.Nullable;

/**
 * What kind of limit a policy is: a tier's own, or one that applies whatever the caller's
 * tier (the per-IP backstop, a handler's limit, a group's concurrency cap, the login
 * protection's budgets), or one set at runtime for one identity. Policies of the kinds
 * that apply to every tier are named after the kind ({@code backstop-ip-default}).
 */
public enum PolicyScope {

	/** A limit configured for a tier ({@code ratelimit.tiers}). */
	TIER(null),

	/** The per-IP backstop, which applies to every tier ({@code ratelimit.ip}). */
	BACKSTOP("backstop"),

	/** A limit declared on a handler, which applies to every tier. */
	INLINE("inline"),

	/** A group's own concurrency cap, which applies to every tier. */
	GROUP("group"),

	/**
	 * A limit set at runtime for one identity: it counts in the buckets of the tier limit
	 * it replaces.
	 */
	OVERRIDE("override"),

	/** A budget of failed logins ({@code ratelimit.login-protection}). */
	LOGIN("login"),

	/**
	 * A budget of the service shared by every caller ({@code ratelimit.service}), which
	 * applies to every tier.
	 */
	SERVICE("service");

	private final @Nullable String tierName;

	PolicyScope(@Nullable String tierName) {
		this.tierName = tierName;
	}

	/**
	 * The name that stands for the tier in the names of this kind's policies, or
	 * {@code null} for {@link #TIER} (its policies carry their tier's name).
	 */
	public @Nullable String tierName() {
		return this.tierName;
	}

	/**
	 * Whether policies of this kind are a tier's limits (configured, or overridden at
	 * runtime for one identity).
	 */
	public boolean tierLimit() {
		return this == TIER || this == OVERRIDE;
	}

}
