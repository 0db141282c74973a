package io.github.ratelimit.identity;

import org.jspecify.annotations.Nullable;

import io.github.ratelimit.policy.Dimension;

/**
 * The caller of one request, as far as it could be verified. Every value here came from a
 * verified source (or is the client address): an unknown credential leaves {@code user},
 * {@code org} and {@code token} empty and the tier anonymous.
 *
 * @param user the verified user name, or {@code null}
 * @param org the verified organisation, or {@code null}
 * @param token a hash of the verified credential (never the secret itself), or
 * {@code null}
 * @param ip the client address, normalised and grouped by prefix (for example
 * {@code 2001:db8:1:2::/64})
 * @param tier the plan whose limits apply
 * @param authenticated whether the caller was verified
 */
public record Identity(@Nullable String user, @Nullable String org, @Nullable String token, String ip, String tier,
		boolean authenticated) {

	/** The id of every caller in {@link Dimension#SERVICE}: they share one budget. */
	public static final String SERVICE_ID = "all";

	/**
	 * The id this identity has in a dimension, or {@code null} when it has none there.
	 */
	public @Nullable String idFor(Dimension dimension) {
		return switch (dimension) {
			case USER -> this.user;
			case ORG -> this.org;
			case TOKEN -> this.token;
			case IP -> this.ip;
			// only a login attempt names an account, never a verified caller
			case ACCOUNT -> null;
			// read from the request by the key's resolver, not from the caller
			case KEY -> null;
			// one budget for every caller
			case SERVICE -> SERVICE_ID;
		};
	}

	/** This caller in another tier (an allow rule's). */
	public Identity withTier(String tier) {
		return new Identity(this.user, this.org, this.token, this.ip, tier, this.authenticated);
	}

	/** An anonymous caller known by address only. */
	public static Identity anonymous(String ip, String tier) {
		return new Identity(null, null, null, ip, tier, false);
	}

}
