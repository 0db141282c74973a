package io.github.ratelimit.identity;

import java.util.List;
import java.util.Random;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.springframework.security.authentication.TestingAuthenticationToken;

import io.github.ratelimit.identity.security.SpringSecurityIdentityResolver;
import io.github.ratelimit.test.TestRequest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link Identifier} with the resolvers of this package.
 */
class IdentifierTests {

	private static final String KEY = "ak_live_3f9c2d7e1b";

	private final ClientIpResolver ipResolver = new ClientIpResolver(CidrRange.LOOPBACK_AND_PRIVATE_RANGES, 32, 64);

	private final Identifier identifier = new Identifier(
			List.of(new ApiKeyIdentityResolver(List.of(ApiKey.ofKey(KEY, "alice", "acme", "premium"))),
					new SpringSecurityIdentityResolver()),
			this.ipResolver, Set.of("anonymous", "authenticated", "premium"), "anonymous", "authenticated");

	@Test
	void anonymousCallerIsKnownByAddress() {
		Identity identity = this.identifier
			.identify(TestRequest.from("10.0.0.1").header("X-Forwarded-For", "203.0.113.7"));
		assertThat(identity).isEqualTo(Identity.anonymous("203.0.113.7", "anonymous"));
	}

	@Test
	void knownApiKeyGivesItsTierAndAHashedToken() {
		Identity identity = this.identifier.identify(request().header("X-API-Key", KEY));
		assertThat(identity)
			.isEqualTo(new Identity("alice", "acme", CredentialHashes.tokenId(KEY), "203.0.113.7", "premium", true));
		assertThat(identity.toString()).doesNotContain(KEY);
	}

	@Test
	void unknownApiKeyIsAnonymous() {
		Identity identity = this.identifier.identify(request().header("X-API-Key", "ak_live_guessed"));
		assertThat(identity).isEqualTo(Identity.anonymous("203.0.113.7", "anonymous"));
	}

	@Test
	void rotatingGarbageKeysStayAnonymous() {
		Random random = new Random(7);
		for (int i = 0; i < 1000; i++) {
			String key = Long.toHexString(random.nextLong()) + "-" + i;
			Identity identity = this.identifier.identify(request().header("X-API-Key", key));
			// every attempt counts against the same address, with no token of its own
			assertThat(identity).isEqualTo(Identity.anonymous("203.0.113.7", "anonymous"));
		}
	}

	@Test
	void authenticatedUserWithConfiguredTierKeepsIt() {
		TestingAuthenticationToken authentication = new TestingAuthenticationToken("bob", null, "TIER_premium");
		Identity identity = this.identifier.identify(request().principal(authentication));
		assertThat(identity).isEqualTo(new Identity("bob", null, null, "203.0.113.7", "premium", true));
	}

	@Test
	void forgedTierClaimFallsBackToAuthenticatedTier() {
		TestingAuthenticationToken authentication = new TestingAuthenticationToken("bob", null, "TIER_unlimited");
		Identity identity = this.identifier.identify(request().principal(authentication));
		assertThat(identity.tier()).isEqualTo("authenticated");
		assertThat(identity.authenticated()).isTrue();
	}

	@Test
	void unauthenticatedClaimOfATierIsAnonymous() {
		TestingAuthenticationToken authentication = new TestingAuthenticationToken("bob", null, "TIER_premium");
		authentication.setAuthenticated(false);
		Identity identity = this.identifier.identify(request().principal(authentication));
		assertThat(identity).isEqualTo(Identity.anonymous("203.0.113.7", "anonymous"));
	}

	@Test
	void apiKeyIsAskedBeforeSpringSecurity() {
		TestingAuthenticationToken authentication = new TestingAuthenticationToken("bob", null, "TIER_authenticated");
		Identity identity = this.identifier.identify(request().principal(authentication).header("X-API-Key", KEY));
		assertThat(identity.user()).isEqualTo("alice");
	}

	@Test
	void unknownApiKeyFallsThroughToSpringSecurity() {
		TestingAuthenticationToken authentication = new TestingAuthenticationToken("bob", null, List.of());
		Identity identity = this.identifier.identify(request().principal(authentication).header("X-API-Key", "nope"));
		assertThat(identity).isEqualTo(new Identity("bob", null, null, "203.0.113.7", "authenticated", true));
	}

	@Test
	void failingResolverLeavesTheCallerAnonymous() {
		IdentityResolver broken = (request) -> {
			throw new IllegalStateException("boom");
		};
		Identifier identifier = new Identifier(List.of(broken), this.ipResolver, Set.of("premium"), "anonymous",
				"authenticated");
		assertThat(identifier.identify(request())).isEqualTo(Identity.anonymous("203.0.113.7", "anonymous"));
	}

	private static TestRequest request() {
		return TestRequest.from("203.0.113.7");
	}

}
