package io.github.ratelimit.identity;

import org.jspecify.annotations.Nullable;

/**
 * What an {@link IdentityResolver} found a request's caller to be, from a credential it
 * verified: the verified part of the request's {@link Identity}, which adds the client
 * address and settles the tier. At least one of {@code user}, {@code org} and
 * {@code token} is set.
 *
 * @param user the user name, or {@code null} (a shared integration key may have none)
 * @param org the organisation, or {@code null}
 * @param tier the plan, or {@code null} for
 * {@code ratelimit.identity.authenticated-tier}; a tier that is not configured falls back
 * to that too, so a forged claim can never invent a tier
 * @param token a hash of the credential, never the secret (see {@link CredentialHashes}),
 * or {@code null}
 */
public record ResolvedIdentity(@Nullable String user, @Nullable String org, @Nullable String tier,
		@Nullable String token) {

	public ResolvedIdentity {
		if (user == null && org == null && token == null) {
			throw new IllegalArgumentException("a caller needs a user, an org or a token");
		}
	}

	/** An identity known by user name only. */
	public static ResolvedIdentity user(String user) {
		return new ResolvedIdentity(user, null, null, null);
	}

}
