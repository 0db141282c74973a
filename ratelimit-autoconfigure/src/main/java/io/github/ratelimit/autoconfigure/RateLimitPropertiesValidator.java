package io.github.ratelimit.autoconfigure;

import io.github.ratelimit.policy.LimitParser;
import io.github.ratelimit.policy.WarnAt;
import org.springframework.web.util.pattern.PathPatternParser;
import org.springframework.web.util.pattern.PathPattern;
import io.github.ratelimit.web.LoginAttempts;
import io.github.ratelimit.identity.LoginAccountResolver;
import io.github.ratelimit.control.BanRule;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import org.springframework.core.env.Environment;

import io.github.ratelimit.policy.InvalidRateLimitConfigurationException;
import io.github.ratelimit.http.HeaderStyle;
import io.github.ratelimit.http.RateLimitHeaders;
import io.github.ratelimit.identity.ApiKey;
import io.github.ratelimit.identity.ApiKeyIdentityResolver;
import io.github.ratelimit.identity.CidrRange;
import io.github.ratelimit.identity.ClientIpResolver;
import io.github.ratelimit.policy.CalendarQuota;
import io.github.ratelimit.policy.ConcurrencyLimit;
import io.github.ratelimit.policy.CountedResponses;
import io.github.ratelimit.control.AccessRule;
import io.github.ratelimit.control.BanRules;
import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.InlineLimit;
import io.github.ratelimit.policy.Limit;
import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.policy.PolicyOptions;
import io.github.ratelimit.policy.PolicyTable;
import io.github.ratelimit.web.EndpointClassifier;
import io.github.ratelimit.web.EndpointRule;
import io.github.ratelimit.web.EndpointRules;

/**
 * Turns {@link RateLimitProperties} into the limiter's parts, failing on the first
 * invalid property with an {@link InvalidRateLimitConfigurationException} that names it
 * and shows a valid value.
 */
final class RateLimitPropertiesValidator {

	/**
	 * The longest max-wait: a waiting request holds a thread (servlet) or a connection.
	 */
	static final Duration MAX_WAIT = Duration.ofSeconds(30);

	private RateLimitPropertiesValidator() {
	}

	static PolicyTable policyTable(RateLimitProperties properties) {
		String prefix = properties.getStorage().getKeyPrefix();
		if (prefix == null || prefix.length() > 64 || prefix.chars().anyMatch((c) -> c <= ' ' || c > '~')) {
			throw new InvalidRateLimitConfigurationException("ratelimit.storage.key-prefix", prefix,
					"use at most 64 printable ASCII characters without spaces", "rl:");
		}
		// the limits as the binder parsed them: none is parsed again
		PolicyTable table = PolicyTable.of(tierLimits(properties.getTiers()), properties.getIp(),
				properties.getGroups().keySet(), prefix, policyOptions(properties));
		properties.getGroups().forEach((group, definition) -> checkCostFits(table, group, definition.getCost()));
		return table;
	}

	/**
	 * Tier, dimension, group, limit: the shape {@link PolicyTable} reads; quotas as group
	 * "all".
	 */
	private static Map<String, Map<String, Map<String, Limit>>> tierLimits(
			Map<String, RateLimitProperties.Tier> tiers) {
		Map<String, Map<String, Map<String, Limit>>> limits = new LinkedHashMap<>();
		tiers.forEach((name, tier) -> {
			Map<String, Map<String, Limit>> dimensions = new LinkedHashMap<>();
			putIfAny(dimensions, "org", tier.getOrg());
			putIfAny(dimensions, "user", tier.getUser());
			putIfAny(dimensions, "token", tier.getToken());
			putIfAny(dimensions, "ip", tier.getIp());
			tier.getQuota().forEach((dimension, limit) -> {
				if (Dimension.fromKey(dimension) == null) {
					throw new InvalidRateLimitConfigurationException("ratelimit.tiers." + name + ".quota." + dimension,
							limit, "unknown dimension; use user, org, token or ip",
							"ratelimit.tiers." + name + ".quota.org=1000000/month");
				}
				if (dimensions.getOrDefault(dimension, Map.of()).containsKey(Policy.ALL_GROUPS)) {
					throw new InvalidRateLimitConfigurationException(
							"ratelimit.tiers." + name + "." + dimension + "." + Policy.ALL_GROUPS, limit,
							"'all' is reserved for tier-wide quotas; set them under quota",
							"ratelimit.tiers." + name + ".quota." + dimension + "=1000000/month");
				}
				dimensions.computeIfAbsent(dimension, (key) -> new LinkedHashMap<>()).put(Policy.ALL_GROUPS, limit);
			});
			limits.put(name, dimensions);
		});
		return limits;
	}

	private static void putIfAny(Map<String, Map<String, Limit>> dimensions, String dimension,
			Map<String, Limit> limits) {
		if (!limits.isEmpty()) {
			dimensions.put(dimension, new LinkedHashMap<>(limits));
		}
	}

	static PolicyOptions policyOptions(RateLimitProperties properties) {
		Map<String, PolicyOptions.Tuning> tiers = new LinkedHashMap<>();
		properties.getTiers()
			.forEach((name, tier) -> tiers.put(name,
					new PolicyOptions.Tuning(tier.getMode(), percent(tier.getWarnAt()))));
		Map<String, PolicyOptions.GroupOptions> groups = new LinkedHashMap<>();
		properties.getGroups().forEach((name, group) -> {
			String property = "ratelimit.groups." + name;
			if (group.getConcurrency() < 0 || group.getConcurrency() > ConcurrencyLimit.MAX_PERMITS) {
				throw new InvalidRateLimitConfigurationException(property + ".concurrency", group.getConcurrency(),
						"must be between 1 and " + ConcurrencyLimit.MAX_PERMITS + ", or 0 for no cap", "2");
			}
			Duration maxWait = group.getMaxWait();
			if (maxWait.isNegative() || maxWait.compareTo(MAX_WAIT) > 0) {
				throw new InvalidRateLimitConfigurationException(property + ".max-wait", maxWait,
						"must be between 0 and " + MAX_WAIT.toSeconds() + "s: a request waits holding a thread or a "
								+ "connection",
						"200ms");
			}
			CountedResponses counts;
			try {
				counts = CountedResponses.parse(group.getCount());
			}
			catch (IllegalArgumentException ex) {
				throw new InvalidRateLimitConfigurationException(property + ".count",
						String.join(", ", group.getCount()), ex.getMessage(), CountedResponses.EXAMPLE);
			}
			groups.put(name,
					new PolicyOptions.GroupOptions(
							new PolicyOptions.Tuning(group.getMode(), percent(group.getWarnAt())),
							group.getConcurrency(), maxWait, counts));
		});
		Integer warnAt = percent(properties.getWarnAt());
		if (properties.getWaiting().getMaxRequests() < 0) {
			throw new InvalidRateLimitConfigurationException("ratelimit.waiting.max-requests",
					properties.getWaiting().getMaxRequests(), "must not be negative", "100");
		}
		return new PolicyOptions(properties.getQuotas().getZone(), properties.getMode(), (warnAt != null) ? warnAt : 0,
				tiers, groups);
	}

	/**
	 * The configured allow and deny rules, each checked: a bad one names its property and
	 * a valid value.
	 */
	static List<AccessRule> accessRules(RateLimitProperties.Access access, PolicyTable table) {
		List<AccessRule> rules = new ArrayList<>();
		accessRules("ratelimit.access.deny", AccessRule.Access.DENY, access.getDeny(), table, rules);
		accessRules("ratelimit.access.allow", AccessRule.Access.ALLOW, access.getAllow(), table, rules);
		return rules;
	}

	private static void accessRules(String property, AccessRule.Access kind, List<String> texts, PolicyTable table,
			List<AccessRule> rules) {
		for (int i = 0; i < texts.size(); i++) {
			String text = texts.get(i);
			String indexed = property + "[" + i + "]";
			String example = (kind == AccessRule.Access.DENY) ? "169.254.0.0/16"
					: "203.0.113.0/24 (or user:partner-bot as premium)";
			AccessRule rule;
			try {
				rule = AccessRule.parse(kind, (text != null) ? text : "");
			}
			catch (IllegalArgumentException ex) {
				throw new InvalidRateLimitConfigurationException(indexed, text, ex.getMessage(), example);
			}
			if (rule.tier() != null && !table.hasTier(rule.tier())) {
				throw new InvalidRateLimitConfigurationException(indexed, text,
						"unknown tier '" + rule.tier() + "'; configured tiers are " + table.tiers(), example);
			}
			rules.add(rule);
		}
	}

	/** The ban rules of every tier and group, each resolved rule checked. */
	static BanRules banRules(RateLimitProperties properties) {
		Map<String, BanRules.Settings> tiers = new LinkedHashMap<>();
		properties.getTiers().forEach((name, tier) -> tiers.put(name, tier.getBans().toSettings()));
		Map<String, BanRules.Settings> groups = new LinkedHashMap<>();
		properties.getGroups().forEach((name, group) -> groups.put(name, group.getBans().toSettings()));
		checkBans("ratelimit.bans", properties.getBans().toSettings());
		tiers.forEach((name, settings) -> checkBans("ratelimit.tiers." + name + ".bans", settings));
		groups.forEach((name, settings) -> checkBans("ratelimit.groups." + name + ".bans", settings));
		BanRules rules = new BanRules(properties.getBans().toSettings(), tiers, groups);
		// every combination resolves to a valid rule (max-duration at least duration,
		// after inheritance)
		for (String tier : tiers.isEmpty() ? List.of("") : tiers.keySet()) {
			for (String group : groups.isEmpty() ? List.of("") : groups.keySet()) {
				try {
					rules.ruleFor(tier, group);
				}
				catch (IllegalArgumentException ex) {
					throw new InvalidRateLimitConfigurationException("ratelimit.bans.max-duration",
							properties.getBans().getMaxDuration(),
							ex.getMessage() + " (in tier '" + tier + "', group '" + group + "')", "24h");
				}
			}
		}
		return rules;
	}

	private static void checkBans(String property, BanRules.Settings settings) {
		if (settings.refusals() != null && settings.refusals() < 0) {
			throw new InvalidRateLimitConfigurationException(property + ".refusals", settings.refusals(),
					"must be at least 1, or 0 to ban nobody", "100");
		}
		checkPositive(property + ".window", settings.window(), "1m");
		checkPositive(property + ".duration", settings.duration(), "1h");
		checkPositive(property + ".max-duration", settings.maxDuration(), "24h");
		if (settings.memory() != null && settings.memory().isNegative()) {
			throw new InvalidRateLimitConfigurationException(property + ".memory", settings.memory(),
					"must not be negative", "24h");
		}
	}

	private static void checkPositive(String property, @Nullable Duration value, String example) {
		if (value != null && value.toMillis() < 1) {
			throw new InvalidRateLimitConfigurationException(property, value, "must be at least 1ms", example);
		}
	}

	/** The most bans in force at once. */
	static int maxActiveBans(RateLimitProperties.Bans bans) {
		if (bans.getMaxActive() < 1) {
			throw new InvalidRateLimitConfigurationException("ratelimit.bans.max-active", bans.getMaxActive(),
					"must be at least 1", "100000");
		}
		return bans.getMaxActive();
	}

	/** How often runtime control is refreshed from the store. */
	static Duration refreshInterval(RateLimitProperties.Control control) {
		Duration interval = control.getRefreshInterval();
		if (interval == null || interval.toMillis() < 10 || interval.compareTo(Duration.ofMinutes(10)) > 0) {
			throw new InvalidRateLimitConfigurationException("ratelimit.control.refresh-interval", interval,
					"must be between 10ms and 10m", "1s");
		}
		return interval;
	}

	/**
	 * What in the configuration only the script strategy can decide (a calendar quota, a
	 * concurrency cap, a max-wait), described with its property; {@code null} when token
	 * buckets are all there is.
	 */
	static @Nullable String needsScript(RateLimitProperties properties) {
		for (Map.Entry<String, RateLimitProperties.Group> group : properties.getGroups().entrySet()) {
			if (group.getValue().getConcurrency() > 0) {
				return "ratelimit.groups." + group.getKey() + ".concurrency";
			}
			if (group.getValue().getMaxWait().toMillis() > 0) {
				return "ratelimit.groups." + group.getKey() + ".max-wait";
			}
		}
		PolicyTable table = policyTable(properties);
		for (String group : table.groups()) {
			for (Policy policy : table.policiesOfGroup(group)) {
				if (policy.limit().has(CalendarQuota.class) || policy.limit().has(ConcurrencyLimit.class)) {
					return "policy " + policy.name() + " (" + policy.limit().spec() + ")";
				}
			}
		}
		return null;
	}

	/** The share of a soft limit; {@code null} when unset. */
	static @Nullable Integer percent(@Nullable WarnAt warnAt) {
		return (warnAt != null) ? warnAt.percent() : null;
	}

	/**
	 * A group whose cost exceeds a bucket's capacity could never be called: a
	 * configuration mistake.
	 */
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
		// the binder has read each style (an unknown one fails there, with its origin and
		// the valid values)
		try {
			return RateLimitHeaders.of(new LinkedHashSet<>(headers.getStyles()));
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidRateLimitConfigurationException("ratelimit.headers.styles", headers.getStyles(),
					ex.getMessage(), "[ietf, x-ratelimit]");
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
	 * Checks, once the handlers and routes are known, that every group they name is
	 * configured (a typo must not quietly fall into {@code default}) and that every group
	 * without paths is named by one.
	 */
	static void checkGroups(RateLimitProperties properties, EndpointClassifier classifier, PolicyTable policies) {
		Map<String, String> named = classifier.annotatedGroups();
		named.forEach((group, pattern) -> {
			if (!policies.groups().contains(group)) {
				throw new InvalidRateLimitConfigurationException("ratelimit.groups", group,
						"@RateLimited(group = \"" + group + "\") or a route attribute on " + pattern
								+ " names a group that is not configured; " + "configured groups are "
								+ policies.groups() + ". Declare it (paths are optional for a "
								+ "group that handlers name)",
						"ratelimit.groups." + group + ".cost=1");
			}
		});
		for (EndpointRule rule : classifier.annotatedRules()) {
			checkAnnotatedCostFits(classifier, rule);
		}
		properties.getGroups().forEach((name, group) -> {
			if (group.getPaths().isEmpty() && !named.containsKey(name)) {
				throw new InvalidRateLimitConfigurationException("ratelimit.groups." + name + ".paths", "[]",
						"a group needs path patterns, or a @RateLimited handler or route attribute that names it",
						"/v1/" + name + "/**");
			}
		});
	}

	/**
	 * A handler whose cost (its own, or its group's) exceeds what its own limit can ever
	 * hold would answer every request 403: a mistake to report at startup. (A tier's
	 * limit below the cost only keeps that tier out, which an override may change.)
	 */
	private static void checkAnnotatedCostFits(EndpointClassifier classifier, EndpointRule rule) {
		// a cost of the handler's own was checked as its annotation was read
		if (rule.exempt() || rule.cost() > 0 || rule.group() == null) {
			return;
		}
		long cost = classifier.groupCost(rule.group());
		String where = "@RateLimited on " + rule.pattern().getPatternString();
		InlineLimit inline = rule.inline();
		if (inline != null && !inline.limit().blocked() && cost > inline.limit().maxCost()) {
			throw new InvalidRateLimitConfigurationException(where, cost,
					"a request costs " + cost + " tokens (its group's cost), more than its own limit ("
							+ inline.limit().spec() + ") can ever hold; " + "set a cost that fits or raise the limit",
					"@RateLimited(cost = " + inline.limit().maxCost() + ")");
		}
	}

	/**
	 * Everything under the Actuator's base path, where health probes live; nothing when
	 * it is the root.
	 */
	private static List<String> actuatorPaths(Environment environment) {
		String basePath = environment.getProperty("management.endpoints.web.base-path", "/actuator").strip();
		while (basePath.endsWith("/")) {
			basePath = basePath.substring(0, basePath.length() - 1);
		}
		if (basePath.isEmpty()) {
			// the Actuator at the root: its endpoints cannot be told from the
			// application's by path
			return List.of();
		}
		return List.of((basePath.startsWith("/") ? basePath : "/" + basePath) + "/**");
	}

	/** Failed-login protection, or {@code null} when it is off. */
	static io.github.ratelimit.core.@Nullable LoginProtection loginProtection(RateLimitProperties properties) {
		RateLimitProperties.LoginProtection login = properties.getLoginProtection();
		if (!login.isEnabled()) {
			return null;
		}
		String property = "ratelimit.login-protection";
		if (!properties.getFilter().isGateEnabled()) {
			// the gate before authentication is what counts attempts: without it nothing
			// would be protected
			throw new InvalidRateLimitConfigurationException(property + ".enabled", true,
					"login protection needs the gate before authentication, which ratelimit.filter.gate-enabled=false "
							+ "turns off",
					"false");
		}
		Limit perAddress = failureLimit(property + ".per-address", login.getPerAddress(), "10/1m");
		String perAccountText = login.getPerAccount();
		Limit perAccount = (perAccountText == null || perAccountText.isBlank()
				|| "none".equalsIgnoreCase(perAccountText.strip())) ? null
						: failureLimit(property + ".per-account", perAccountText, "20/15m");
		CountedResponses failures;
		try {
			failures = CountedResponses.parse(login.getCount());
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidRateLimitConfigurationException(property + ".count", String.join(", ", login.getCount()),
					ex.getMessage(), "401");
		}
		if (failures.all()) {
			throw new InvalidRateLimitConfigurationException(property + ".count", String.join(", ", login.getCount()),
					"login protection counts failed attempts only", "401");
		}
		BanRules.Settings bans = login.getBans().toSettings();
		checkBans(property + ".bans", bans);
		BanRule rule;
		try {
			rule = new BanRules(bans, Map.of(), Map.of()).ruleFor("", "");
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidRateLimitConfigurationException(property + ".bans.max-duration", bans.maxDuration(),
					ex.getMessage(), "24h");
		}
		checkFormLogin(property + ".form-login", login.getFormLogin());
		return new io.github.ratelimit.core.LoginProtection(perAddress, perAccount, failures, rule,
				properties.getStorage().getKeyPrefix());
	}

	private static Limit failureLimit(String property, @Nullable String text, String example) {
		Limit limit;
		try {
			limit = LimitParser.parse((text != null) ? text : "");
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidRateLimitConfigurationException(property, text, ex.getMessage(), example);
		}
		if (limit.blocked() || limit.has(ConcurrencyLimit.class)) {
			throw new InvalidRateLimitConfigurationException(property, text,
					"must be a number of failed attempts over a period", example);
		}
		return limit;
	}

	private static void checkFormLogin(String property, RateLimitProperties.FormLogin form) {
		if (form.getPath() == null || !form.getPath().startsWith("/")) {
			throw new InvalidRateLimitConfigurationException(property + ".path", form.getPath(),
					"must be a path starting with /", "/login");
		}
		if (form.getUsernameParameter() == null || form.getUsernameParameter().isBlank()) {
			throw new InvalidRateLimitConfigurationException(property + ".username-parameter",
					form.getUsernameParameter(), "must not be empty", "username");
		}
		if (form.getFailureUrl() == null || form.getFailureUrl().isBlank()) {
			throw new InvalidRateLimitConfigurationException(property + ".failure-url", form.getFailureUrl(),
					"must not be empty", "/login?error");
		}
	}

	/**
	 * Which requests are login attempts, or {@code null} when logins are not protected.
	 */
	static @Nullable LoginAttempts loginAttempts(RateLimitProperties properties,
			@Nullable LoginAccountResolver resolver) {
		RateLimitProperties.LoginProtection login = properties.getLoginProtection();
		if (!login.isEnabled()) {
			return null;
		}
		RateLimitProperties.FormLogin form = login.getFormLogin();
		checkFormLogin("ratelimit.login-protection.form-login", form);
		PathPattern formPath = pathPattern("ratelimit.login-protection.form-login.path", form.getPath());
		List<PathPattern> paths = new ArrayList<>();
		for (String path : login.getPaths()) {
			paths.add(pathPattern("ratelimit.login-protection.paths", path));
		}
		return new LoginAttempts(formPath, form.getUsernameParameter(), form.getFailureUrl(), paths, resolver);
	}

	private static PathPattern pathPattern(String property, @Nullable String path) {
		try {
			return PathPatternParser.defaultInstance.parse((path != null) ? path : "");
		}
		catch (RuntimeException ex) {
			throw new InvalidRateLimitConfigurationException(property, path, ex.getMessage(), "/api/login");
		}
	}

}
