package io.github.ratelimit.identity;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.github.ratelimit.test.TestRequest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link ApiKeyIdentityResolver} and {@link ApiKey}.
 */
class ApiKeyIdentityResolverTests {

	private static final String ALICE_KEY = "ak_live_3f9c2d7e1b";

	private static final String SHARED_KEY = "ak_live_integration_77";

	private final ApiKeyIdentityResolver resolver = new ApiKeyIdentityResolver(
			List.of(new ApiKey(CredentialHashes.sha256Hex(ALICE_KEY), "alice", "acme", "premium"),
					ApiKey.ofKey(SHARED_KEY, null, "acme", null)));

	@Test
	void knownApiKeyIdentifiesItsCaller() {
		ResolvedIdentity caller = this.resolver.resolve(request(ALICE_KEY));
		assertThat(caller)
			.isEqualTo(new ResolvedIdentity("alice", "acme", "premium", CredentialHashes.tokenId(ALICE_KEY)));
	}

	@Test
	void sharedKeyWithoutUserIsKnownByOrgAndToken() {
		ResolvedIdentity caller = this.resolver.resolve(request(SHARED_KEY));
		assertThat(caller).isEqualTo(new ResolvedIdentity(null, "acme", null, CredentialHashes.tokenId(SHARED_KEY)));
	}

	@Test
	void callerNeverShowsTheRawKey() {
		ResolvedIdentity caller = this.resolver.resolve(request(ALICE_KEY));
		assertThat(caller).isNotNull();
		assertThat(caller.toString()).doesNotContain(ALICE_KEY);
		assertThat(this.resolver.toString()).doesNotContain(ALICE_KEY)
			.doesNotContain(CredentialHashes.sha256Hex(ALICE_KEY));
	}

	@Test
	void unknownApiKeyIsAnonymous() {
		assertThat(this.resolver.resolve(request("ak_live_unknown"))).isNull();
	}

	@Test
	void missingApiKeyIsAnonymous() {
		assertThat(this.resolver.resolve(TestRequest.from("203.0.113.7"))).isNull();
	}

	@ParameterizedTest
	@ValueSource(strings = { "", " ", "ak live", "ak_live_\u00e9", "ak\u0000", "\t" })
	void garbageApiKeyIsAnonymous(String key) {
		assertThat(this.resolver.resolve(request(key))).isNull();
	}

	@Test
	void oversizedApiKeyIsAnonymousEvenWhenConfigured() {
		String longKey = "k".repeat(ApiKey.MAX_KEY_LENGTH + 1);
		ApiKeyIdentityResolver resolver = new ApiKeyIdentityResolver(
				List.of(new ApiKey(CredentialHashes.sha256Hex(longKey), "bob", null, null)));
		assertThat(resolver.resolve(request(longKey))).isNull();
		assertThat(resolver.resolve(request("k".repeat(100_000)))).isNull();
	}

	@Test
	void keyOfMaximumLengthIsAccepted() {
		String key = "k".repeat(ApiKey.MAX_KEY_LENGTH);
		ApiKeyIdentityResolver resolver = new ApiKeyIdentityResolver(List.of(ApiKey.ofKey(key, "bob", null, null)));
		assertThat(resolver.resolve(request(key))).isNotNull();
	}

	@Test
	void ignoresSurroundingWhitespace() {
		assertThat(this.resolver.resolve(request("  " + ALICE_KEY + "\t"))).isNotNull();
	}

	@Test
	void readsTheConfiguredHeader() {
		ApiKeyIdentityResolver resolver = new ApiKeyIdentityResolver("X-Client-Key",
				List.of(ApiKey.ofKey(ALICE_KEY, "alice", null, null)));
		assertThat(resolver.resolve(TestRequest.from("203.0.113.7").header("x-client-key", ALICE_KEY))).isNotNull();
		assertThat(resolver.resolve(request(ALICE_KEY))).isNull();
	}

	@Test
	void readsTheApiKeySchemeFromAuthorization() {
		ApiKeyIdentityResolver resolver = new ApiKeyIdentityResolver("Authorization",
				List.of(ApiKey.ofKey(ALICE_KEY, "alice", null, null)));
		assertThat(resolver.resolve(authorization("ApiKey " + ALICE_KEY))).isNotNull();
		assertThat(resolver.resolve(authorization("apikey  " + ALICE_KEY))).isNotNull();
		assertThat(resolver.resolve(authorization("Bearer " + ALICE_KEY))).isNull();
		assertThat(resolver.resolve(authorization(ALICE_KEY))).isNull();
		assertThat(resolver.resolve(authorization("ApiKey "))).isNull();
		assertThat(resolver.resolve(authorization("ApiKey" + ALICE_KEY))).isNull();
	}

	@Test
	void doesNotReadAuthorizationUnlessConfigured() {
		assertThat(this.resolver.resolve(authorization("ApiKey " + ALICE_KEY))).isNull();
	}

	@Test
	void acceptsUpperCaseHashes() {
		ApiKeyIdentityResolver resolver = new ApiKeyIdentityResolver(
				List.of(new ApiKey(CredentialHashes.sha256Hex(ALICE_KEY).toUpperCase(), "alice", null, null)));
		assertThat(resolver.resolve(request(ALICE_KEY))).isNotNull();
	}

	@Test
	void dropsBlankNames() {
		ApiKey key = new ApiKey(CredentialHashes.sha256Hex(ALICE_KEY), " ", "", null);
		assertThat(key.user()).isNull();
		assertThat(key.org()).isNull();
	}

	@Test
	void rejectsAHashThatIsNotSha256Hex() {
		assertThatIllegalArgumentException().isThrownBy(() -> new ApiKey("abc", "alice", null, null))
			.withMessage("the key's SHA-256 must be 64 hex digits (printf %s \"$KEY\" | sha256sum), not 3 characters");
		String notHex = "g" + CredentialHashes.sha256Hex(ALICE_KEY).substring(1);
		assertThatIllegalArgumentException().isThrownBy(() -> new ApiKey(notHex, "alice", null, null))
			.withMessage(
					"the key's SHA-256 must be 64 hex digits (printf %s \"$KEY\" | sha256sum); character 0 is not one");
		assertThat(ApiKey.invalidSha256Reason(CredentialHashes.sha256Hex(ALICE_KEY))).isNull();
	}

	@Test
	void rejectsARawKeyThatCouldNeverBePresentedWithoutShowingIt() {
		assertThatIllegalArgumentException().isThrownBy(() -> ApiKey.ofKey("my secret", "alice", null, null))
			.withMessageNotContaining("my secret")
			.withMessage("an API key must be 1 to 256 visible ASCII characters without spaces");
	}

	@Test
	void rejectsAKeyDefinedTwice() {
		List<ApiKey> keys = List.of(ApiKey.ofKey(ALICE_KEY, "alice", null, null),
				ApiKey.ofKey("other", "bob", null, null),
				new ApiKey(CredentialHashes.sha256Hex(ALICE_KEY).toUpperCase(), "mallory", null, "premium"));
		assertThatIllegalArgumentException().isThrownBy(() -> new ApiKeyIdentityResolver(keys))
			.withMessage("apiKeys[2] has the same key as apiKeys[0]; define each key once");
	}

	@Test
	void rejectsABlankHeaderName() {
		assertThatIllegalArgumentException().isThrownBy(() -> new ApiKeyIdentityResolver(" ", List.of()))
			.withMessage("the API key header name must not be blank");
	}

	private static TestRequest request(String key) {
		return TestRequest.from("203.0.113.7").header(ApiKeyIdentityResolver.DEFAULT_HEADER, key);
	}

	private static TestRequest authorization(String value) {
		return TestRequest.from("203.0.113.7").header("Authorization", value);
	}

}
