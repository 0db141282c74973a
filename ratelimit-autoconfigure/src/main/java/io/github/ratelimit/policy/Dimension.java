package io.github.ratelimit.policy;

import java.util.Locale;

import org.jspecify.annotations.Nullable;

/**
 * Whose budget a limit counts against. Declared in tie-break order: when two limits force
 * the same wait, the earlier dimension is named as the reason (org before user before
 * token before ip), so a user is never blamed for their organisation's budget.
 */
public enum Dimension {

	/** The organisation (tenant, workspace) of a verified caller. */
	ORG,

	/** A verified user. */
	USER,

	/**
	 * The credential itself (a hash of it), for integration keys shared by several
	 * callers.
	 */
	TOKEN,

	/**
	 * A key of the application's choosing ({@code ratelimit.keys}: a request header, a
	 * path variable, an expression or a resolver bean), read from each request: the
	 * policy names which key ({@code Policy#keyName()}). Caller input, never verified.
	 */
	KEY,

	/**
	 * The account a login attempt names (a hash of the user name tried, never verified):
	 * only the limits of {@code ratelimit.login-protection} count here, never a tier's.
	 */
	ACCOUNT,

	/** The client address, grouped by prefix for IPv6. */
	IP,

	/**
	 * Every caller together: a budget of the service (a group, or the whole API) shared
	 * by all. Last in tie-break order: a caller's own limit is the more actionable
	 * reason.
	 */
	SERVICE;

	private final String key = name().toLowerCase(Locale.ROOT);

	/** The lower-case name used in properties, store keys, headers and bodies. */
	public String key() {
		return this.key;
	}

	/**
	 * Whether the dimension counts callers that were not verified (an address, an account
	 * name tried), whose ids anyone can mint: stores keep those buckets apart so a flood
	 * of them cannot evict the others.
	 */
	public boolean unverified() {
		return this == IP || this == ACCOUNT || this == KEY;
	}

	/**
	 * Returns the dimension named {@code key} (case-insensitive) that tiers, overrides
	 * and the endpoint take (user, org, token, ip), or {@code null}.
	 */
	public static @Nullable Dimension fromKey(String key) {
		for (Dimension dimension : values()) {
			if (dimension != ACCOUNT && dimension != KEY && dimension != SERVICE
					&& dimension.key.equalsIgnoreCase(key)) {
				return dimension;
			}
		}
		return null;
	}

}
