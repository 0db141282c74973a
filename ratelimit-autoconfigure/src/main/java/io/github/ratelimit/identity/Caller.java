package io.github.ratelimit.identity;

import org.jspecify.annotations.Nullable;

/**
 * A verified caller, as an {@link IdentityResolver} found it. At least one of
 * {@code user}, {@code org} and {@code token} is set.
 *
 * @param user the user name, or {@code null} (a shared integration key may have none)
 * @param org the organisation, or {@code null}
 * @param tier the plan, or {@code null} for
 * {@code ratelimit.identity.authenticated-tier}; a tier that is not configured falls back
 * to that too, so a forged claim can never invent a tier
 * @param token a hash of the credential, never the secret (see {@link CredentialHashes}),
 * or {@code null}
 */
public record Caller(@Nullable String user, @Nullable String org, @Nullable String tier, @Nullable String token) {

	public Caller {
		if (user == null && org == null && token == null) {
			throw new IllegalArgumentException("a caller needs a user, an org or a token");
		}
	}

	/** A caller known by user name only. */
	public static Caller user(String user) {
		return new Caller(user, null, null, null);
	}

}
