package io.github.ratelimit.autoconfigure;

import java.util.ArrayList;
import java.util.List;

import io.github.ratelimit.identity.ApiKey;
import io.github.ratelimit.identity.ApiKeyIdentityResolver;
import io.github.ratelimit.identity.ClientIpResolver;
import io.github.ratelimit.policy.InvalidRateLimitConfigurationException;
import io.github.ratelimit.policy.PolicyTable;

/**
 * Maps the identity settings of {@link RateLimitProperties} into the resolvers of client
 * addresses and API keys, failing on the first invalid property with an
 * {@link InvalidRateLimitConfigurationException} that names it and shows a valid value.
 */
final class IdentityMapper {

	private IdentityMapper() {
	}

	static ClientIpResolver clientIpResolver(RateLimitProperties.Identity identity) {
		if (identity.getIpv4Prefix() < 1 || identity.getIpv4Prefix() > 32) {
			throw new InvalidRateLimitConfigurationException("ratelimit.identity.ipv4-prefix", identity.getIpv4Prefix(),
					"must be between 1 and 32", "32");
		}
		if (identity.getIpv6Prefix() < 1 || identity.getIpv6Prefix() > 128) {
			throw new InvalidRateLimitConfigurationException("ratelimit.identity.ipv6-prefix", identity.getIpv6Prefix(),
					"must be between 1 and 128", "64");
		}
		// the binder has parsed every range (a bad one fails there, with its origin)
		return ClientIpResolver.trusting(identity.getTrustedProxies(), identity.getIpv4Prefix(),
				identity.getIpv6Prefix(), identity.getForwardedHeader());
	}

	static ApiKeyIdentityResolver apiKeyResolver(RateLimitProperties.Identity identity, PolicyTable policyTable) {
		List<ApiKey> keys = new ArrayList<>();
		List<RateLimitProperties.ApiKey> configured = identity.getApiKeys();
		String example = "{ key-sha256: \"<sha-256 of the key, 64 hex digits>\", user: alice, org: acme, tier: premium }";
		for (int i = 0; i < configured.size(); i++) {
			RateLimitProperties.ApiKey key = configured.get(i);
			String property = "ratelimit.identity.api-keys[" + i + "]";
			if (key.getTier() != null && !policyTable.hasTier(key.getTier())) {
				throw new InvalidRateLimitConfigurationException(property + ".tier", key.getTier(),
						"unknown tier; configured tiers are " + policyTable.tiers(), "premium");
			}
			if (key.getUser() == null && key.getOrg() == null && key.getTier() == null) {
				throw new InvalidRateLimitConfigurationException(property, "(no user, org or tier)",
						"an API key must identify a user, an org or a tier", example);
			}
			// the binder checked the hash (a bad one fails there, its value never shown)
			KeySha256 hash = key.getKeySha256();
			boolean hasHash = hash != null;
			boolean hasKey = key.getKey() != null && !key.getKey().isEmpty();
			if (hasHash == hasKey) {
				throw new InvalidRateLimitConfigurationException(property, "(key)",
						"set exactly one of key-sha256 and key", example);
			}
			if (hash != null) {
				keys.add(new ApiKey(hash.hex(), key.getUser(), key.getOrg(), key.getTier()));
			}
			else {
				keys.add(ApiKey.ofKey(key.getKey(), key.getUser(), key.getOrg(), key.getTier()));
			}
		}
		try {
			return new ApiKeyIdentityResolver(identity.getApiKeyHeader(), keys);
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidRateLimitConfigurationException("ratelimit.identity.api-keys", "(keys)", ex.getMessage(),
					example);
		}
	}

}
