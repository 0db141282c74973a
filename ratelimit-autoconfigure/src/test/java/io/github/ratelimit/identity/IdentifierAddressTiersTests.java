package io.github.ratelimit.identity;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.github.ratelimit.test.TestRequest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Anonymous callers held to a tier by their address (a reputation tier list); verified
 * callers keep the tier of their credential.
 */
class IdentifierAddressTiersTests {

	private static final String KEY = "ak_live_3f9c2d7e1b";

	private final AddressTiers suspicious = (address) -> address.startsWith("203.0.113.") ? "suspicious" : null;

	private Identifier identifier(AddressTiers tiers, Set<String> configured) {
		return new Identifier(List.of(new ApiKeyIdentityResolver(List.of(ApiKey.ofKey(KEY, "alice", null, "premium")))),
				new ClientIpResolver(CidrRange.LOOPBACK_AND_PRIVATE_RANGES, 32, 64), configured::contains, "anonymous",
				"authenticated", tiers);
	}

	@Test
	void anAnonymousCallerOnTheListIsInItsTier() {
		Identifier identifier = identifier(this.suspicious, Set.of("anonymous", "premium", "suspicious"));
		assertThat(identifier.identify(TestRequest.from("10.0.0.1").header("X-Forwarded-For", "203.0.113.7")))
			.isEqualTo(Identity.anonymous("203.0.113.7", "suspicious"));
		assertThat(identifier.anonymous(TestRequest.from("203.0.113.8")).tier()).isEqualTo("suspicious");
		assertThat(identifier.identify(TestRequest.from("198.51.100.7")).tier()).isEqualTo("anonymous");
	}

	@Test
	void aVerifiedCallerKeepsItsTier() {
		Identifier identifier = identifier(this.suspicious, Set.of("anonymous", "premium", "suspicious"));
		assertThat(identifier.identify(TestRequest.from("203.0.113.7").header("X-API-Key", KEY)).tier())
			.isEqualTo("premium");
	}

	@Test
	void aTierNotConfiguredOrAFailingListLeavesTheAnonymousTier() {
		assertThat(identifier(this.suspicious, Set.of("anonymous")).identify(TestRequest.from("203.0.113.7")).tier())
			.isEqualTo("anonymous");
		AddressTiers failing = (address) -> {
			throw new IllegalStateException("list gone");
		};
		assertThat(
				identifier(failing, Set.of("anonymous", "suspicious")).identify(TestRequest.from("203.0.113.7")).tier())
			.isEqualTo("anonymous");
	}

}
