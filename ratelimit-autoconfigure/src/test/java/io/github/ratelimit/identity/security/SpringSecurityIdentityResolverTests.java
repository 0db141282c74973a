package io.github.ratelimit.identity.security;

import java.security.Principal;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.authentication.TestingAuthenticationToken;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.authority.AuthorityUtils;
import org.springframework.security.oauth2.core.ClaimAccessor;
import org.springframework.security.oauth2.core.DefaultOAuth2AuthenticatedPrincipal;

import io.github.ratelimit.identity.ResolvedIdentity;
import io.github.ratelimit.test.TestRequest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link SpringSecurityIdentityResolver}.
 */
class SpringSecurityIdentityResolverTests {

	private final SpringSecurityIdentityResolver resolver = new SpringSecurityIdentityResolver();

	@Test
	void identifiesAnAuthenticatedUser() {
		Authentication authentication = UsernamePasswordAuthenticationToken.authenticated("alice", null,
				AuthorityUtils.createAuthorityList("ROLE_USER"));
		assertThat(resolve(authentication)).isEqualTo(ResolvedIdentity.user("alice"));
	}

	@Test
	void readsOrgAndTierFromAuthorities() {
		Authentication authentication = UsernamePasswordAuthenticationToken.authenticated("alice", null,
				AuthorityUtils.createAuthorityList("ROLE_USER", "ORG_acme", "TIER_premium"));
		assertThat(resolve(authentication)).isEqualTo(new ResolvedIdentity("alice", "acme", "premium", null));
	}

	@Test
	void readsAuthoritiesOfATestingToken() {
		TestingAuthenticationToken authentication = new TestingAuthenticationToken("bob", null, "TIER_pro");
		assertThat(resolve(authentication)).isEqualTo(new ResolvedIdentity("bob", null, "pro", null));
	}

	@Test
	void readsConfiguredAuthorityPrefixes() {
		SpringSecurityIdentityResolver resolver = new SpringSecurityIdentityResolver("org_id", "tier", "TENANT:",
				"PLAN:");
		Authentication authentication = new TestingAuthenticationToken("bob", null, "TENANT:acme", "PLAN:pro",
				"TIER_premium");
		assertThat(resolver.resolve(request(authentication)))
			.isEqualTo(new ResolvedIdentity("bob", "acme", "pro", null));
	}

	@Test
	void emptyPrefixesTurnAuthoritiesOff() {
		SpringSecurityIdentityResolver resolver = new SpringSecurityIdentityResolver("", "", "", "");
		Authentication authentication = new TestingAuthenticationToken("bob", null, "ORG_acme", "TIER_pro");
		assertThat(resolver.resolve(request(authentication))).isEqualTo(ResolvedIdentity.user("bob"));
	}

	@Test
	void severalDifferentTierAuthoritiesNameNoTier() {
		Authentication authentication = new TestingAuthenticationToken("bob", null, "TIER_free", "TIER_premium",
				"ORG_acme", "ORG_acme");
		assertThat(resolve(authentication)).isEqualTo(new ResolvedIdentity("bob", "acme", null, null));
	}

	@Test
	void ignoresAnAuthorityThatIsOnlyThePrefix() {
		Authentication authentication = new TestingAuthenticationToken("bob", null, "TIER_", "ORG_");
		assertThat(resolve(authentication)).isEqualTo(ResolvedIdentity.user("bob"));
	}

	@Test
	void readsOrgAndTierFromOAuth2Attributes() {
		DefaultOAuth2AuthenticatedPrincipal principal = new DefaultOAuth2AuthenticatedPrincipal("alice",
				Map.of("sub", "alice", "org_id", "acme", "tier", "premium"),
				AuthorityUtils.createAuthorityList("TIER_free"));
		Authentication authentication = new TestingAuthenticationToken(principal, null, "TIER_free");
		ResolvedIdentity caller = resolve(authentication);
		assertThat(caller).isNotNull();
		assertThat(caller.org()).isEqualTo("acme");
		// a claim wins over an authority
		assertThat(caller.tier()).isEqualTo("premium");
	}

	@Test
	void readsOrgAndTierFromJwtClaims() {
		ClaimAccessor jwt = () -> Map.of("sub", "alice", "tenant", 4711L, "plan", "pro");
		SpringSecurityIdentityResolver resolver = new SpringSecurityIdentityResolver("tenant", "plan", "ORG_", "TIER_");
		Authentication authentication = new TestingAuthenticationToken(jwt, null, "ORG_other");
		ResolvedIdentity caller = resolver.resolve(request(authentication));
		assertThat(caller).isNotNull();
		assertThat(caller.org()).isEqualTo("4711");
		assertThat(caller.tier()).isEqualTo("pro");
	}

	@Test
	void fallsBackToAuthoritiesWhenAClaimIsMissingOrNotAName() {
		ClaimAccessor jwt = () -> Map.of("sub", "alice", "tier", List.of("premium"));
		Authentication authentication = new TestingAuthenticationToken(jwt, null, "ORG_acme", "TIER_free");
		ResolvedIdentity caller = resolve(authentication);
		assertThat(caller).isNotNull();
		assertThat(caller.org()).isEqualTo("acme");
		assertThat(caller.tier()).isEqualTo("free");
	}

	@Test
	void anonymousTokenIsAnonymous() {
		Authentication anonymous = new AnonymousAuthenticationToken("key", "anonymousUser",
				AuthorityUtils.createAuthorityList("ROLE_ANONYMOUS", "TIER_premium"));
		assertThat(anonymous.isAuthenticated()).isTrue();
		assertThat(resolve(anonymous)).isNull();
	}

	@Test
	void unauthenticatedTokenIsAnonymous() {
		Authentication unauthenticated = UsernamePasswordAuthenticationToken.unauthenticated("alice", "password");
		assertThat(resolve(unauthenticated)).isNull();
		TestingAuthenticationToken testing = new TestingAuthenticationToken("alice", null, "TIER_premium");
		testing.setAuthenticated(false);
		assertThat(resolve(testing)).isNull();
	}

	@Test
	void otherPrincipalsAreAnonymous() {
		Principal principal = () -> "alice";
		assertThat(this.resolver.resolve(TestRequest.from("203.0.113.7").principal(principal))).isNull();
		assertThat(this.resolver.resolve(TestRequest.from("203.0.113.7"))).isNull();
	}

	@Test
	void blankNameWithoutOrgIsAnonymous() {
		assertThat(resolve(new TestingAuthenticationToken(" ", null, "TIER_premium"))).isNull();
		assertThat(resolve(new TestingAuthenticationToken(" ", null, "ORG_acme")))
			.isEqualTo(new ResolvedIdentity(null, "acme", null, null));
	}

	private ResolvedIdentity resolve(Authentication authentication) {
		return this.resolver.resolve(request(authentication));
	}

	private static TestRequest request(Authentication authentication) {
		return TestRequest.from("203.0.113.7").principal(authentication);
	}

}
