package io.github.ratelimit.autoconfigure;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

import org.springframework.core.env.Environment;

import io.github.ratelimit.policy.InvalidRateLimitConfigurationException;
import io.github.ratelimit.http.HeaderStyle;
import io.github.ratelimit.http.RateLimitHeaders;
import io.github.ratelimit.identity.ApiKey;
import io.github.ratelimit.identity.ApiKeyIdentityResolver;
import io.github.ratelimit.identity.CidrRange;
import io.github.ratelimit.identity.ClientIpResolver;
import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.policy.PolicyTable;
import io.github.ratelimit.web.EndpointClassifier;
import io.github.ratelimit.web.EndpointRule;
import io.github.ratelimit.web.EndpointRules;

/**
 * Turns {@link RateLimitProperties} into the limiter's parts, failing on the first invalid property
 * with an {@link InvalidRateLimitConfigurationException} that names it and shows a valid value.
 */
final class RateLimitPropertiesValidator {

	private RateLimitPropertiesValidator() {
	}

	static PolicyTable policyTable(RateLimitProperties properties) {
		String prefix = properties.getStorage().getKeyPrefix();
		if (prefix == null || prefix.length() > 64 || prefix.chars().anyMatch((c) -> c <= ' ' || c > '~')) {
			throw new InvalidRateLimitConfigurationException("ratelimit.storage.key-prefix", prefix,
					"use at most 64 printable ASCII characters without spaces", "rl:");
		}
		PolicyTable table = PolicyTable.build(properties.getTiers(), properties.getIp(),
				properties.getGroups().keySet(), prefix);
		properties.getGroups().forEach((group, definition) -> checkCostFits(table, group, definition.getCost()));
		return table;
	}

	/** A group whose cost exceeds a bucket's capacity could never be called: a configuration mistake. */
	private static void checkCostFits(PolicyTable table, String group, long cost) {
		for (Policy policy : table.policiesOfGroup(group)) {
			if (!policy.limit().blocked() && cost > policy.limit().maxCost()) {
				throw new InvalidRateLimitConfigurationException("ratelimit.groups." + group + ".cost", cost,
						"a request would cost more than the " + policy.limit().maxCost() + " tokens that policy '"
								+ policy.name() + "' (" + policy.limit().spec()
								+ ") can ever hold; raise that limit or its burst, or use 0 to block the group",
						String.valueOf(policy.limit().maxCost()));
			}
		}
	}

	static ClientIpResolver clientIpResolver(RateLimitProperties.Identity identity) {
		List<String> proxies = identity.getTrustedProxies();
		for (int i = 0; i < proxies.size(); i++) {
			String reason = CidrRange.invalidReason(proxies.get(i));
			if (reason != null) {
				throw new InvalidRateLimitConfigurationException("ratelimit.identity.trusted-proxies[" + i + "]",
						proxies.get(i), reason, "10.0.0.0/8");
			}
		}
		if (identity.getIpv4Prefix() < 1 || identity.getIpv4Prefix() > 32) {
			throw new InvalidRateLimitConfigurationException("ratelimit.identity.ipv4-prefix", identity.getIpv4Prefix(),
					"must be between 1 and 32", "32");
		}
		if (identity.getIpv6Prefix() < 1 || identity.getIpv6Prefix() > 128) {
			throw new InvalidRateLimitConfigurationException("ratelimit.identity.ipv6-prefix", identity.getIpv6Prefix(),
					"must be between 1 and 128", "64");
		}
		return new ClientIpResolver(proxies, identity.getIpv4Prefix(), identity.getIpv6Prefix(),
				identity.getForwardedHeader());
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
			boolean hasHash = key.getKeySha256() != null && !key.getKeySha256().isBlank();
			boolean hasKey = key.getKey() != null && !key.getKey().isEmpty();
			if (hasHash == hasKey) {
				throw new InvalidRateLimitConfigurationException(property, "(key)",
						"set exactly one of key-sha256 and key", example);
			}
			if (hasHash) {
				String reason = ApiKey.invalidSha256Reason(key.getKeySha256());
				if (reason != null) {
					// never echo the value: it may be a raw key pasted in the wrong place
					throw new InvalidRateLimitConfigurationException(property + ".key-sha256", "(hidden)", reason,
							example);
				}
				keys.add(new ApiKey(key.getKeySha256(), key.getUser(), key.getOrg(), key.getTier()));
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

	static RateLimitHeaders headers(RateLimitProperties.Headers headers) {
		Set<HeaderStyle> styles = new LinkedHashSet<>();
		List<String> configured = headers.getStyles();
		for (int i = 0; i < configured.size(); i++) {
			try {
				styles.add(HeaderStyle.fromValue(configured.get(i)));
			}
			catch (IllegalArgumentException ex) {
				throw new InvalidRateLimitConfigurationException("ratelimit.headers.styles[" + i + "]",
						configured.get(i), ex.getMessage(), "[ietf, x-ratelimit]");
			}
		}
		try {
			return RateLimitHeaders.of(styles);
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidRateLimitConfigurationException("ratelimit.headers.styles", configured, ex.getMessage(),
					"[ietf, x-ratelimit]");
		}
	}

	static EndpointClassifier classifier(RateLimitProperties properties, Environment environment,
			Supplier<List<EndpointRule>> annotated) {
		List<EndpointRule> groups = new ArrayList<>();
		properties.getGroups()
			.forEach((name, group) -> groups.addAll(EndpointRules.group("ratelimit.groups." + name, name,
					group.getPaths(), group.getMethods(), group.getCost())));
		Map<String, Long> costs = new LinkedHashMap<>();
		properties.getGroups().forEach((name, group) -> costs.put(name, group.getCost()));
		List<String> excluded = properties.getExcludePaths();
		return new EndpointClassifier(
				EndpointRules.exclusions((excluded != null) ? excluded : actuatorPaths(environment)), groups, costs,
				annotated);
	}

	/**
	 * Checks, once the handlers and routes are known, that every group they name is configured (a typo
	 * must not quietly fall into {@code default}) and that every group without paths is named by one.
	 */
	static void checkGroups(RateLimitProperties properties, EndpointClassifier classifier, PolicyTable policies) {
		Map<String, String> named = classifier.annotatedGroups();
		named.forEach((group, pattern) -> {
			if (!policies.groups().contains(group)) {
				throw new InvalidRateLimitConfigurationException("ratelimit.groups", group, "@RateLimited(group = \""
						+ group + "\") or a route attribute on " + pattern + " names a group that is not configured; "
						+ "configured groups are " + policies.groups() + ". Declare it (paths are optional for a "
						+ "group that handlers name)", "ratelimit.groups." + group + ".cost=1");
			}
		});
		properties.getGroups().forEach((name, group) -> {
			if (group.getPaths().isEmpty() && !named.containsKey(name)) {
				throw new InvalidRateLimitConfigurationException("ratelimit.groups." + name + ".paths", "[]",
						"a group needs path patterns, or a @RateLimited handler or route attribute that names it",
						"/v1/" + name + "/**");
			}
		});
	}

	/** Everything under the Actuator's base path, where health probes live; nothing when it is the root. */
	private static List<String> actuatorPaths(Environment environment) {
		String basePath = environment.getProperty("management.endpoints.web.base-path", "/actuator").strip();
		while (basePath.endsWith("/")) {
			basePath = basePath.substring(0, basePath.length() - 1);
		}
		if (basePath.isEmpty()) {
			// the Actuator at the root: its endpoints cannot be told from the application's by path
			return List.of();
		}
		return List.of((basePath.startsWith("/") ? basePath : "/" + basePath) + "/**");
	}

}
