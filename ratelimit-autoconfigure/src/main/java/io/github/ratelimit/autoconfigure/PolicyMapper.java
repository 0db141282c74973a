package io.github.ratelimit.autoconfigure;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import io.github.ratelimit.policy.Bandwidth;
import io.github.ratelimit.policy.CalendarQuota;
import io.github.ratelimit.policy.Classification;
import io.github.ratelimit.policy.ConcurrencyLimit;
import io.github.ratelimit.policy.CountedResponses;
import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.FixedWindow;
import io.github.ratelimit.policy.InvalidRateLimitConfigurationException;
import io.github.ratelimit.policy.KeyLimits;
import io.github.ratelimit.policy.LeakyBucket;
import io.github.ratelimit.policy.Limit;
import io.github.ratelimit.policy.LimitParser;
import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.policy.PolicyOptions;
import io.github.ratelimit.policy.PolicyTable;
import io.github.ratelimit.policy.SlidingWindow;
import io.github.ratelimit.policy.WarnAt;

/**
 * Maps the limits, groups, modes and soft limits of {@link RateLimitProperties} into the
 * {@link PolicyTable}, failing on the first invalid property with an
 * {@link InvalidRateLimitConfigurationException} that names it and shows a valid value.
 */
final class PolicyMapper {

	private PolicyMapper() {
	}

	/**
	 * The longest max-wait: a waiting request holds a thread (servlet) or a connection.
	 */
	static final Duration MAX_WAIT = Duration.ofSeconds(30);

	static PolicyTable policyTable(RateLimitProperties properties) {
		String prefix = properties.getStorage().getKeyPrefix();
		if (prefix == null || prefix.length() > 64 || prefix.chars().anyMatch((c) -> c <= ' ' || c > '~')) {
			throw new InvalidRateLimitConfigurationException("ratelimit.storage.key-prefix", prefix,
					"use at most 64 printable ASCII characters without spaces", "rl:");
		}
		checkNames(properties);
		// the limits as the binder parsed them: none is parsed again
		Map<String, Map<String, Map<String, Limit>>> tiers = tierLimits(properties.getTiers());
		Set<String> groups = properties.getGroups().keySet();
		checkGroupsOfLimits(tiers, properties.getIp(), groups);
		Map<String, Limit> service = ServiceLimitMapper.serviceLimits(properties);
		PolicyOptions options = policyOptions(properties);
		KeyLimits keys = KeyMapper.keyLimits(properties);
		checkCounts(options, tiers, properties.getIp(), service, keys);
		PolicyTable table = PolicyTable.of(tiers, properties.getIp(), service, keys, groups, options);
		properties.getGroups().forEach((group, definition) -> checkCostFits(table, group, definition.getCost()));
		return table;
	}

	/**
	 * Tier and group names appear in headers, keys and metric tags; some tier names are
	 * taken by limits that are no tier's.
	 */
	static void checkNames(RateLimitProperties properties) {
		for (String group : properties.getGroups().keySet()) {
			checkName("ratelimit.groups." + group, group);
		}
		for (String tier : properties.getTiers().keySet()) {
			checkName("ratelimit.tiers." + tier, tier);
			if (PolicyTable.isReservedTier(tier)) {
				throw new InvalidRateLimitConfigurationException("ratelimit.tiers." + tier, tier,
						"'" + tier + "' is a reserved name (of the per-IP backstop, of @RateLimited limits, of "
								+ "groups' concurrency caps, of runtime overrides and of the service's budgets)",
						"premium");
			}
		}
	}

	private static void checkName(String property, String name) {
		if (!PolicyTable.isValidName(name)) {
			throw new InvalidRateLimitConfigurationException(property, name,
					"names may hold letters, digits, '.', '_' and '-' (at most 64)", "premium");
		}
	}

	/**
	 * Every limit is for a configured group, {@code default}, or (a tier's quota) every
	 * group.
	 */
	static void checkGroupsOfLimits(Map<String, Map<String, Map<String, Limit>>> tiers, Map<String, Limit> backstop,
			Set<String> groups) {
		Set<String> known = new LinkedHashSet<>(groups);
		known.add(Classification.DEFAULT_GROUP);
		tiers.forEach((tier, dimensions) -> dimensions.forEach((dimension, limits) -> limits.forEach(
				(group, limit) -> checkGroup("ratelimit.tiers." + tier + "." + dimension, group, limit, known, true))));
		backstop.forEach((group, limit) -> checkGroup("ratelimit.ip", group, limit, known, false));
	}

	private static void checkGroup(String property, String group, Limit limit, Set<String> known, boolean tier) {
		if (!known.contains(group) && !(tier && Policy.ALL_GROUPS.equals(group))) {
			throw new InvalidRateLimitConfigurationException(
					property + "." + group, limit.spec(), "unknown endpoint group '" + group + "'; known groups are "
							+ known + " (declare it under ratelimit.groups)",
					property + ".default=" + LimitParser.EXAMPLE);
		}
	}

	/**
	 * Only limits declared for a group count by outcome: a group whose requests count in
	 * the shared default limits cannot count only some of them.
	 */
	static void checkCounts(PolicyOptions options, Map<String, Map<String, Map<String, Limit>>> tiers,
			Map<String, Limit> backstop, Map<String, Limit> service, KeyLimits keys) {
		options.groups().forEach((group, groupOptions) -> {
			if (!groupOptions.counts().all() && !service.containsKey(group) && !declaresLimit(tiers, backstop, group)
					&& !keys.declares(group)) {
				throw new InvalidRateLimitConfigurationException("ratelimit.groups." + group + ".count",
						groupOptions.counts().spec(),
						"only limits declared for the group count by outcome, and group '" + group + "' has none "
								+ "(its requests count in the shared default limits, which count every response)",
						"ratelimit.ip." + group + "=10/1m");
			}
		});
	}

	private static boolean declaresLimit(Map<String, Map<String, Map<String, Limit>>> tiers,
			Map<String, Limit> backstop, String group) {
		return backstop.containsKey(group) || tiers.values()
			.stream()
			.flatMap((dimensions) -> dimensions.values().stream())
			.anyMatch((limits) -> limits.containsKey(group));
	}

	/**
	 * Tier, dimension, group, limit: the shape {@link PolicyTable} reads; quotas as group
	 * "all".
	 */
	static Map<String, Map<String, Map<String, Limit>>> tierLimits(Map<String, RateLimitProperties.Tier> tiers) {
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

	static void putIfAny(Map<String, Map<String, Limit>> dimensions, String dimension, Map<String, Limit> limits) {
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
				counts = CountedResponses.of(group.getCount());
			}
			catch (IllegalArgumentException ex) {
				throw new InvalidRateLimitConfigurationException(property + ".count",
						LoginProtectionMapper.countSpec(group.getCount()), ex.getMessage(), CountedResponses.EXAMPLE);
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
	 * What in the configuration only the script strategy can decide (a fixed or sliding
	 * window, a leaky bucket, a calendar quota, a concurrency cap, a max-wait), described
	 * with its property; {@code null} when token buckets are all there is.
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
		String configured = notTokenBucket(properties);
		if (configured != null) {
			return configured;
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

	/**
	 * The first configured limit with an item other than a token bucket, as its property,
	 * value and kind ({@code ratelimit.tiers.free.ip.default (100/1m fixed) is a fixed
	 * window}); {@code null} when there is none.
	 */
	private static @Nullable String notTokenBucket(RateLimitProperties properties) {
		Map<String, Limit> limits = new LinkedHashMap<>();
		properties.getTiers().forEach((tier, limitsOfTier) -> {
			String prefix = "ratelimit.tiers." + tier + ".";
			limitsOfTier.getUser().forEach((group, limit) -> limits.put(prefix + "user." + group, limit));
			limitsOfTier.getOrg().forEach((group, limit) -> limits.put(prefix + "org." + group, limit));
			limitsOfTier.getToken().forEach((group, limit) -> limits.put(prefix + "token." + group, limit));
			limitsOfTier.getIp().forEach((group, limit) -> limits.put(prefix + "ip." + group, limit));
			limitsOfTier.getQuota().forEach((dimension, limit) -> limits.put(prefix + "quota." + dimension, limit));
		});
		properties.getIp().forEach((group, limit) -> limits.put("ratelimit.ip." + group, limit));
		for (Map.Entry<String, Limit> entry : limits.entrySet()) {
			for (Bandwidth item : entry.getValue().bandwidths()) {
				String kind = kindName(item);
				if (kind != null) {
					return entry.getKey() + " (" + entry.getValue().spec() + ") is " + kind + ", which";
				}
			}
		}
		return null;
	}

	/**
	 * What an item only the script decides is, in words; {@code null} for a token bucket.
	 */
	private static @Nullable String kindName(Bandwidth item) {
		if (item instanceof FixedWindow) {
			return "a fixed window";
		}
		if (item instanceof SlidingWindow) {
			return "a sliding window";
		}
		if (item instanceof LeakyBucket) {
			return "a leaky bucket";
		}
		if (item instanceof CalendarQuota) {
			return "a calendar quota";
		}
		return (item instanceof ConcurrencyLimit) ? "a concurrency cap" : null;
	}

	/** The share of a soft limit; {@code null} when unset. */
	static @Nullable Integer percent(@Nullable WarnAt warnAt) {
		return (warnAt != null) ? warnAt.percent() : null;
	}

	/**
	 * A group whose cost exceeds a bucket's capacity could never be called: a
	 * configuration mistake.
	 */
	static void checkCostFits(PolicyTable table, String group, long cost) {
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

}
