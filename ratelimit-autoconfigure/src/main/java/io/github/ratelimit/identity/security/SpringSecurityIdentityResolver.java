package io.github.ratelimit.identity.security;

import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.oauth2.core.ClaimAccessor;
import org.springframework.security.oauth2.core.OAuth2AuthenticatedPrincipal;
import org.springframework.util.ClassUtils;

import io.github.ratelimit.identity.ClientRequest;
import io.github.ratelimit.identity.IdentityResolver;
import io.github.ratelimit.identity.ResolvedIdentity;

/**
 * Identifies callers that Spring Security authenticated: the request's principal must be
 * an {@link Authentication} that {@linkplain Authentication#isAuthenticated() is
 * authenticated} and is not anonymous. The user is {@link Authentication#getName()}.
 * <p>
 * Org and tier come from the token's claims when there are any (an
 * {@link OAuth2AuthenticatedPrincipal}'s attributes, such as an OIDC user or an
 * introspected opaque token, or a {@link ClaimAccessor} such as a {@code Jwt}), by
 * default {@code org_id} and {@code tier}; else from authorities with a prefix, by
 * default {@code ORG_acme} and {@code TIER_premium}. A claim must be a string or a
 * number. Several different authorities with the same prefix name nothing, as it cannot
 * be told which one counts: write a claim or your own {@link IdentityResolver} for users
 * with several orgs. A tier that is not configured falls back to the authenticated tier
 * in {@link Identifier}.
 * <p>
 * Spring Security is optional: only create this class when {@code spring-security-core}
 * is on the class path. {@code spring-security-oauth2-core} is optional too: without it
 * only authorities are read.
 */
public final class SpringSecurityIdentityResolver implements IdentityResolver {

	/** The claim that names the org by default. */
	public static final String DEFAULT_ORG_CLAIM = "org_id";

	/** The claim that names the tier by default. */
	public static final String DEFAULT_TIER_CLAIM = "tier";

	/** The prefix of authorities that name the org by default. */
	public static final String DEFAULT_ORG_AUTHORITY_PREFIX = "ORG_";

	/** The prefix of authorities that name the tier by default. */
	public static final String DEFAULT_TIER_AUTHORITY_PREFIX = "TIER_";

	private static final boolean OAUTH2_PRESENT = ClassUtils.isPresent(
			"org.springframework.security.oauth2.core.OAuth2AuthenticatedPrincipal",
			SpringSecurityIdentityResolver.class.getClassLoader());

	/**
	 * Longer names are not ids anyone configures; they are dropped rather than stored.
	 */
	private static final int MAX_NAME_LENGTH = 256;

	private final @Nullable String orgClaim;

	private final @Nullable String tierClaim;

	private final @Nullable String orgAuthorityPrefix;

	private final @Nullable String tierAuthorityPrefix;

	/** Creates a resolver with the default claims and prefixes. */
	public SpringSecurityIdentityResolver() {
		this(DEFAULT_ORG_CLAIM, DEFAULT_TIER_CLAIM, DEFAULT_ORG_AUTHORITY_PREFIX, DEFAULT_TIER_AUTHORITY_PREFIX);
	}

	/**
	 * Creates a resolver. A {@code null} or empty claim or prefix turns that source off
	 * (an empty prefix would match every authority).
	 * @param orgClaim the claim that names the org
	 * @param tierClaim the claim that names the tier
	 * @param orgAuthorityPrefix the prefix of authorities that name the org
	 * @param tierAuthorityPrefix the prefix of authorities that name the tier
	 */
	public SpringSecurityIdentityResolver(@Nullable String orgClaim, @Nullable String tierClaim,
			@Nullable String orgAuthorityPrefix, @Nullable String tierAuthorityPrefix) {
		this.orgClaim = emptyToNull(orgClaim);
		this.tierClaim = emptyToNull(tierClaim);
		this.orgAuthorityPrefix = emptyToNull(orgAuthorityPrefix);
		this.tierAuthorityPrefix = emptyToNull(tierAuthorityPrefix);
	}

	@Override
	public @Nullable ResolvedIdentity resolve(ClientRequest request) {
		if (!(request.principal() instanceof Authentication authentication) || !authentication.isAuthenticated()
				|| authentication instanceof AnonymousAuthenticationToken) {
			return null;
		}
		String user = name(authentication.getName());
		Map<String, Object> claims = OAUTH2_PRESENT ? OAuth2Claims.of(authentication.getPrincipal()) : null;
		String org = claim(claims, this.orgClaim);
		if (org == null) {
			org = authority(authentication, this.orgAuthorityPrefix);
		}
		String tier = claim(claims, this.tierClaim);
		if (tier == null) {
			tier = authority(authentication, this.tierAuthorityPrefix);
		}
		if (user == null && org == null) {
			return null;
		}
		return new ResolvedIdentity(user, org, tier, null);
	}

	private static @Nullable String claim(@Nullable Map<String, Object> claims, @Nullable String name) {
		if (claims == null || name == null) {
			return null;
		}
		Object value = claims.get(name);
		if (value instanceof String string) {
			return name(string);
		}
		if (value instanceof Integer || value instanceof Long) {
			return value.toString();
		}
		return null;
	}

	private static @Nullable String authority(Authentication authentication, @Nullable String prefix) {
		if (prefix == null) {
			return null;
		}
		String found = null;
		for (GrantedAuthority granted : authentication.getAuthorities()) {
			String authority = (granted != null) ? granted.getAuthority() : null;
			if (authority == null || authority.length() <= prefix.length() || !authority.startsWith(prefix)) {
				continue;
			}
			String value = authority.substring(prefix.length());
			if (found != null && !found.equals(value)) {
				return null;
			}
			found = value;
		}
		return name(found);
	}

	private static @Nullable String name(@Nullable String value) {
		return (value == null || value.isBlank() || value.length() > MAX_NAME_LENGTH) ? null : value;
	}

	private static @Nullable String emptyToNull(@Nullable String value) {
		return (value == null || value.isEmpty()) ? null : value;
	}

	@Override
	public String toString() {
		return "SpringSecurityIdentityResolver[orgClaim=" + this.orgClaim + ", tierClaim=" + this.tierClaim
				+ ", orgAuthorityPrefix=" + this.orgAuthorityPrefix + ", tierAuthorityPrefix="
				+ this.tierAuthorityPrefix + "]";
	}

	/**
	 * Reads OAuth 2.0 claims; a separate class so that its OAuth2 types are loaded only
	 * when present.
	 */
	private static final class OAuth2Claims {

		static @Nullable Map<String, Object> of(@Nullable Object principal) {
			if (principal instanceof OAuth2AuthenticatedPrincipal oauth2) {
				return oauth2.getAttributes();
			}
			if (principal instanceof ClaimAccessor accessor) {
				return accessor.getClaims();
			}
			return null;
		}

	}

}
