package io.github.ratelimit.policy;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * Every configured limit, indexed by tier and endpoint group. For a request of tier
 * {@code T} in group {@code G}, each dimension of {@code T} contributes its limit for
 * {@code G} (or for {@code default}), the per-IP backstop its limit for {@code G} (or
 * {@code default}), and the service its budgets shared by every caller: the one for
 * {@code G} (or {@code default}) and the one for {@value Policy#ALL_GROUPS} requests.
 * Built and validated once at startup; lookups on the request path are two map reads.
 */
public final class PolicyTable {

	/**
	 * Names of tiers and groups: they appear in headers, keys and metric tags, so keep
	 * them plain.
	 */
	private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,63}");

	/** The name of the backstop's policies where a tier's would stand. */
	private static final String BACKSTOP = PolicyScope.BACKSTOP.tierName();

	/** Names that stand for a tier in policies that apply to every tier. */
	private static final Set<String> RESERVED = Set.of(BACKSTOP, PolicyScope.INLINE.tierName(),
			PolicyScope.GROUP.tierName(), PolicyScope.OVERRIDE.tierName(), PolicyScope.SERVICE.tierName());

	private final Map<String, Map<Dimension, Map<String, Policy>>> tiers;

	private final Map<String, Policy> backstop;

	private final Map<String, Policy> service;

	private final Set<String> groups;

	private final Map<String, Map<String, List<Policy>>> resolved = new ConcurrentHashMap<>();

	private final Map<InlineLimit, Policy[]> inline = new ConcurrentHashMap<>();

	private final Map<String, Policy[]> groupConcurrency;

	private final PolicyOptions options;

	private final KeyedPolicies keyed;

	private PolicyTable(Map<String, Map<Dimension, Map<String, Policy>>> tiers, Map<String, Policy> backstop,
			Map<String, Policy> service, Set<String> groups, Map<String, Policy[]> groupConcurrency,
			PolicyOptions options, KeyedPolicies keyed) {
		this.tiers = tiers;
		this.service = service;
		this.keyed = keyed;
		this.groupConcurrency = groupConcurrency;
		this.options = options;
		this.backstop = backstop;
		this.groups = groups;
	}

	/**
	 * Builds the table from limit strings, each parsed once (tests, benchmarks, code that
	 * builds a table by hand); configuration goes through {@link #of}.
	 * @param tiers tier, then dimension key, then group (or {@code default}), then limit
	 * string
	 * @param backstop group (or {@code default}) to limit string
	 * @param groups the names of the configured endpoint groups
	 * @return the table
	 * @throws IllegalArgumentException when a limit is malformed or the table
	 * inconsistent
	 */
	public static PolicyTable build(Map<String, Map<String, Map<String, String>>> tiers, Map<String, String> backstop,
			Set<String> groups) {
		return build(tiers, backstop, groups, PolicyOptions.DEFAULTS);
	}

	/**
	 * Builds the table from limit strings, each parsed once, in the options' zone (tests,
	 * benchmarks, code that builds a table by hand); configuration goes through
	 * {@link #of}.
	 * @param tiers tier, then dimension key, then group (or {@code default}, or
	 * {@value Policy#ALL_GROUPS} for a quota on every request of the tier), then limit
	 * string
	 * @param backstop group (or {@code default}) to limit string
	 * @param groups the names of the configured endpoint groups
	 * @param options modes, soft limits, group concurrency and the quota time zone
	 * @return the table
	 * @throws IllegalArgumentException when a limit is malformed or the table
	 * inconsistent
	 */
	public static PolicyTable build(Map<String, Map<String, Map<String, String>>> tiers, Map<String, String> backstop,
			Set<String> groups, PolicyOptions options) {
		Map<String, Map<String, Map<String, Limit>>> tierLimits = new LinkedHashMap<>();
		tiers.forEach((tier, dimensions) -> {
			Map<String, Map<String, Limit>> byDimension = new LinkedHashMap<>();
			dimensions.forEach((dimension, limits) -> byDimension.put(dimension,
					parsed("tier '" + tier + "', dimension '" + dimension + "'", limits, options)));
			tierLimits.put(tier, byDimension);
		});
		return of(tierLimits, parsed("the backstop", backstop, options), groups, options);
	}

	/**
	 * Builds the table from limits parsed already (bound from the configuration): nothing
	 * is parsed again; calendar quotas are counted in the options' zone. The input is
	 * expected checked (the configuration's mapper names the property of a bad value);
	 * what is still inconsistent is a programming error.
	 * @param tiers tier, then dimension key, then group (or {@code default}, or
	 * {@value Policy#ALL_GROUPS} for a quota on every request of the tier), then limit
	 * @param backstop group (or {@code default}) to limit
	 * @param groups the names of the configured endpoint groups
	 * @param options modes, soft limits, group concurrency and the quota time zone
	 * @return the table
	 * @throws IllegalArgumentException when a name is invalid or reserved, a dimension or
	 * group unknown, or a group counts by outcome without a limit of its own
	 */
	public static PolicyTable of(Map<String, Map<String, Map<String, Limit>>> tiers, Map<String, Limit> backstop,
			Set<String> groups, PolicyOptions options) {
		return of(tiers, backstop, Map.of(), KeyLimits.NONE, groups, options);
	}

	/**
	 * Builds the table from limits parsed already, with budgets of the service shared by
	 * every caller, as {@link #of(Map, Map, Set, PolicyOptions)}.
	 * @param tiers tier, then dimension key, then group (or {@code default}, or
	 * {@value Policy#ALL_GROUPS} for a quota on every request of the tier), then limit
	 * @param backstop group (or {@code default}) to limit
	 * @param service group (or {@code default}, or {@value Policy#ALL_GROUPS} for every
	 * request) to the budget all callers share
	 * @param groups the names of the configured endpoint groups
	 * @param options modes, soft limits, group concurrency and the quota time zone
	 * @return the table
	 * @throws IllegalArgumentException when a name is invalid or reserved, a dimension or
	 * group unknown, or a group counts by outcome without a limit of its own
	 */
	public static PolicyTable of(Map<String, Map<String, Map<String, Limit>>> tiers, Map<String, Limit> backstop,
			Map<String, Limit> service, Set<String> groups, PolicyOptions options) {
		return of(tiers, backstop, service, KeyLimits.NONE, groups, options);
	}

	/**
	 * Builds the table from limits parsed already, with limits counted per value of keys
	 * of the application's choosing, as {@link #of(Map, Map, Set, PolicyOptions)}.
	 * @param tiers tier, then dimension key, then group, then limit
	 * @param backstop group (or {@code default}) to limit
	 * @param keys the limits per key, per tier and for every tier
	 * @param groups the names of the configured endpoint groups
	 * @param options modes, soft limits, group concurrency and the quota time zone
	 * @return the table
	 * @throws IllegalArgumentException when a name is invalid or reserved, a dimension or
	 * group unknown, or a group counts by outcome without a limit of its own
	 */
	public static PolicyTable of(Map<String, Map<String, Map<String, Limit>>> tiers, Map<String, Limit> backstop,
			KeyLimits keys, Set<String> groups, PolicyOptions options) {
		return of(tiers, backstop, Map.of(), keys, groups, options);
	}

	/**
	 * Builds the table from limits parsed already, with budgets of the service and limits
	 * by key, as {@link #of(Map, Map, Set, PolicyOptions)}.
	 * @param tiers tier, then dimension key, then group (or {@code default}, or
	 * {@value Policy#ALL_GROUPS} for a quota on every request of the tier), then limit
	 * @param backstop group (or {@code default}) to limit
	 * @param service group (or {@code default}, or {@value Policy#ALL_GROUPS} for every
	 * request) to the budget all callers share
	 * @param keys the limits per key, per tier and for every tier
	 * @param groups the names of the configured endpoint groups
	 * @param options modes, soft limits, group concurrency and the quota time zone
	 * @return the table
	 * @throws IllegalArgumentException when a name is invalid or reserved, a dimension or
	 * group unknown, or a group counts by outcome without a limit of its own
	 */
	public static PolicyTable of(Map<String, Map<String, Map<String, Limit>>> tiers, Map<String, Limit> backstop,
			Map<String, Limit> service, KeyLimits keys, Set<String> groups, PolicyOptions options) {
		Set<String> knownGroups = new LinkedHashSet<>(groups);
		knownGroups.add(Classification.DEFAULT_GROUP);
		for (String group : groups) {
			checkArgument(isValidName(group), "invalid group name '%s'", group);
		}
		Map<String, Map<Dimension, Map<String, Policy>>> tierPolicies = new LinkedHashMap<>();
		tiers.forEach((tier, dimensions) -> {
			checkArgument(isValidName(tier), "invalid tier name '%s'", tier);
			checkArgument(!isReservedTier(tier), "'%s' is a reserved tier name", tier);
			Map<Dimension, Map<String, Policy>> byDimension = new EnumMap<>(Dimension.class);
			dimensions.forEach((dimensionKey, limits) -> {
				Dimension dimension = Dimension.fromKey(dimensionKey);
				if (dimension == null) {
					throw new IllegalArgumentException(
							"unknown dimension '" + dimensionKey + "' in tier '" + tier + "'");
				}
				byDimension.put(dimension,
						policies(PolicyScope.TIER, tier, dimension, null, limits, knownGroups, options));
			});
			tierPolicies.put(tier, byDimension);
		});
		Map<String, Policy> backstopPolicies = policies(PolicyScope.BACKSTOP, BACKSTOP, Dimension.IP, null, backstop,
				knownGroups, options);
		Map<String, Policy> servicePolicies = policies(PolicyScope.SERVICE, PolicyScope.SERVICE.tierName(),
				Dimension.SERVICE, null, service, knownGroups, options);
		keys.tiers()
			.keySet()
			.forEach((tier) -> checkArgument(tiers.containsKey(tier), "limits by key of tier '%s', which tiers lack",
					tier));
		KeyedPolicies keyed = KeyedPolicies.of(keys,
				(scope, tier, key, limits) -> policies(scope, tier, Dimension.KEY, key, limits, knownGroups, options));
		Map<String, Policy[]> groupConcurrency = new LinkedHashMap<>();
		options.groups().forEach((group, groupOptions) -> {
			if (groupOptions.concurrency() > 0) {
				Limit limit = Limit.concurrent(groupOptions.concurrency());
				Mode mode = options.modeOf(PolicyScope.GROUP.tierName(), group);
				groupConcurrency.put(group, new Policy[] {
						new Policy(PolicyScope.GROUP, Dimension.USER, group, limit, mode, 0, CountedResponses.ALL),
						new Policy(PolicyScope.GROUP, Dimension.IP, group, limit, mode, 0, CountedResponses.ALL) });
			}
		});
		// a group's count shapes only the limits declared for it
		options.groups()
			.forEach((group, groupOptions) -> checkArgument(
					groupOptions.counts().all() || servicePolicies.containsKey(group)
							|| declaresLimit(tierPolicies, backstopPolicies, group) || keys.declares(group),
					"group '%s' counts by outcome but declares no limit of its own", group));
		return new PolicyTable(tierPolicies, backstopPolicies, servicePolicies,
				Collections.unmodifiableSet(knownGroups), Map.copyOf(groupConcurrency), options, keyed);
	}

	/**
	 * Whether a tier or group name is plain enough for headers, store keys and metric
	 * tags: letters, digits, {@code .}, {@code _} and {@code -}, at most 64.
	 */
	public static boolean isValidName(String name) {
		return NAME.matcher(name).matches();
	}

	/**
	 * Whether a tier name is taken by the limits that are no tier's: the per-IP
	 * backstop's, {@code @RateLimited} limits', groups' concurrency caps', runtime
	 * overrides' and the service's budgets.
	 */
	public static boolean isReservedTier(String tier) {
		return RESERVED.contains(tier);
	}

	// limit strings, each parsed once, in the quota zone
	private static Map<String, Limit> parsed(String owner, Map<String, String> texts, PolicyOptions options) {
		Map<String, Limit> limits = new LinkedHashMap<>();
		texts.forEach((group, text) -> {
			try {
				limits.put(group, LimitParser.parse(text, options.zone()));
			}
			catch (IllegalArgumentException ex) {
				throw new IllegalArgumentException(
						"invalid limit of " + owner + ", group '" + group + "': " + ex.getMessage(), ex);
			}
		});
		return limits;
	}

	private static Map<String, Policy> policies(PolicyScope scope, String tier, Dimension dimension,
			@Nullable String key, Map<String, Limit> limits, Set<String> groups, PolicyOptions options) {
		Map<String, Policy> policies = new LinkedHashMap<>();
		limits.forEach((group, configured) -> {
			boolean tierWide = Policy.ALL_GROUPS.equals(group) && scope != PolicyScope.BACKSTOP;
			checkArgument(tierWide || groups.contains(group), "unknown endpoint group '%s' (known: %s)", group, groups);
			Limit limit = configured.inZone(options.zone());
			// a group's count shapes the limits declared for it, never those its requests
			// share through default
			Mode mode = options.modeOf(tier, group);
			int warnAt = options.warnAtOf(tier, group);
			CountedResponses counts = options.group(group).counts();
			if (key != null) {
				policies.put(group,
						(scope == PolicyScope.TIER) ? Policy.keyed(tier, key, group, limit, mode, warnAt, counts)
								: Policy.keyed(scope, key, group, limit, mode, warnAt, counts));
				return;
			}
			policies.put(group,
					(scope == PolicyScope.TIER) ? new Policy(tier, dimension, group, limit, mode, warnAt, counts)
							: new Policy(scope, dimension, group, limit, mode, warnAt, counts));
		});
		return policies;
	}

	private static boolean declaresLimit(Map<String, Map<Dimension, Map<String, Policy>>> tiers,
			Map<String, Policy> backstop, String group) {
		if (backstop.containsKey(group)) {
			return true;
		}
		for (Map<Dimension, Map<String, Policy>> dimensions : tiers.values()) {
			for (Map<String, Policy> byGroup : dimensions.values()) {
				if (byGroup.containsKey(group)) {
					return true;
				}
			}
		}
		return false;
	}

	private static void checkArgument(boolean valid, String message, Object... arguments) {
		if (!valid) {
			throw new IllegalArgumentException(String.format(message, arguments));
		}
	}

	/**
	 * The policies for a request of {@code tier} in {@code group}, in dimension order
	 * (org, user, token, ip), then the backstop, then the service's budgets. A tier that
	 * is not configured gets the backstop and the service's budgets only.
	 */
	public List<Policy> policies(String tier, String group) {
		Map<String, List<Policy>> byGroup = this.resolved.get(tier);
		if (byGroup == null) {
			// a plain get first: computeIfAbsent may lock the bin on every request
			byGroup = this.resolved.computeIfAbsent(tier, (key) -> new ConcurrentHashMap<>());
		}
		List<Policy> policies = byGroup.get(group);
		if (policies == null) {
			// bounded: tiers and groups are finite sets from configuration and
			// annotations
			policies = byGroup.computeIfAbsent(group, (key) -> resolve(tier, group));
		}
		return policies;
	}

	/**
	 * The backstop's policy for a request of {@code group}, as a caller of no configured
	 * tier gets it; empty when the backstop sets none.
	 */
	public List<Policy> backstop(String group) {
		return policies(BACKSTOP, group);
	}

	private List<Policy> resolve(String tier, String group) {
		List<Policy> policies = new ArrayList<>();
		Map<Dimension, Map<String, Policy>> dimensions = this.tiers.getOrDefault(tier, Map.of());
		for (Dimension dimension : Dimension.values()) {
			Map<String, Policy> byGroup = dimensions.getOrDefault(dimension, Map.of());
			Policy policy = pick(byGroup, group);
			if (policy != null) {
				policies.add(inherited(policy, group));
			}
			Policy tierWide = byGroup.get(Policy.ALL_GROUPS);
			if (tierWide != null) {
				policies.add(tierWide);
			}
			if (dimension == Dimension.KEY) {
				this.keyed.addTo(policies, tier, group, this::inherited);
			}
		}
		Policy backstopPolicy = pick(this.backstop, group);
		if (backstopPolicy != null) {
			policies.add(inherited(backstopPolicy, group));
		}
		addService(policies, group);
		return List.copyOf(policies);
	}

	/**
	 * The service's budgets for a request of {@code group}: the group's own (or
	 * {@code default}'s), then the one of every request.
	 */
	private void addService(Collection<Policy> policies, String group) {
		Policy servicePolicy = pick(this.service, group);
		if (servicePolicy != null) {
			policies.add(inherited(servicePolicy, group));
		}
		Policy everyRequest = this.service.get(Policy.ALL_GROUPS);
		if (everyRequest != null) {
			policies.add(everyRequest);
		}
	}

	/**
	 * The group's own concurrency cap for a caller: per user when the caller is verified,
	 * else per client address; {@code null} when the group sets none.
	 */
	public @Nullable Policy groupConcurrency(String group, boolean perUser) {
		Policy[] policies = this.groupConcurrency.get(group);
		return (policies != null) ? policies[perUser ? 0 : 1] : null;
	}

	/**
	 * The policy of a limit set at runtime for one identity
	 * ({@code override-<dimension>-<group>}). It counts in the same buckets as the tier
	 * limit it replaces, so spent tokens stay spent.
	 * @param dimension whose budget it counts against
	 * @param group a configured endpoint group, {@code default} or
	 * {@value Policy#ALL_GROUPS}
	 * @param limit the limit, parsed; calendar quotas are counted in the table's zone
	 * @return the policy
	 * @throws IllegalArgumentException when the group is none of the table's
	 */
	public Policy overridePolicy(Dimension dimension, String group, Limit limit) {
		if (!this.groups.contains(group) && !Policy.ALL_GROUPS.equals(group)) {
			throw new IllegalArgumentException("unknown endpoint group '" + group + "'; known groups are " + this.groups
					+ " and " + Policy.ALL_GROUPS + " (a quota over every group)");
		}
		String tier = PolicyScope.OVERRIDE.tierName();
		return new Policy(PolicyScope.OVERRIDE, dimension, group, limit.inZone(this.options.zone()),
				this.options.modeOf(tier, group), this.options.warnAtOf(tier, group),
				this.options.group(group).counts());
	}

	/** The options the table was built with (modes, soft limits, waiting, quota zone). */
	public PolicyOptions options() {
		return this.options;
	}

	/**
	 * A policy a group's requests inherit through {@code default} takes the group's mode
	 * and soft limit: a group in observe mode changes none of its responses, whichever
	 * buckets its requests count against.
	 */
	private Policy inherited(Policy policy, String group) {
		if (policy.group().equals(group) || !this.options.groups().containsKey(group)) {
			return policy;
		}
		return policy.withTuning(this.options.modeOf(policy.tier(), group),
				this.options.warnAtOf(policy.tier(), group));
	}

	private static @Nullable Policy pick(Map<String, Policy> byGroup, String group) {
		Policy policy = byGroup.get(group);
		return (policy != null) ? policy : byGroup.get(Classification.DEFAULT_GROUP);
	}

	/**
	 * The policy of a handler's own limit for a caller: per what its {@code per} names,
	 * else per user when the caller is verified, else per client address. Built once per
	 * handler (a finite set, from annotations).
	 */
	public Policy inline(InlineLimit limit, boolean perUser) {
		Policy[] policies = this.inline.computeIfAbsent(limit,
				(key) -> key.per().isEmpty()
						? new Policy[] { Policy.inline(key, Dimension.USER, this.options),
								Policy.inline(key, Dimension.IP, this.options) }
						: new Policy[] { Policy.inlinePer(key, this.options) });
		// a limit whose per names whom it counts has one policy, whoever calls
		return policies[(perUser || policies.length == 1) ? 0 : 1];
	}

	/**
	 * Every policy that can apply to a request of {@code group}, whatever its tier: each
	 * configured tier's, the backstop's and the service's (for startup checks).
	 */
	public Set<Policy> policiesOfGroup(String group) {
		Set<Policy> policies = new LinkedHashSet<>();
		for (String tier : this.tiers.keySet()) {
			policies.addAll(policies(tier, group));
		}
		policies.addAll(backstop(group));
		Policy backstopPolicy = pick(this.backstop, group);
		if (backstopPolicy != null) {
			policies.add(backstopPolicy);
		}
		addService(policies, group);
		Policy[] concurrency = this.groupConcurrency.get(group);
		if (concurrency != null) {
			policies.addAll(List.of(concurrency));
		}
		return policies;
	}

	/** Whether a tier is configured. */
	public boolean hasTier(String tier) {
		return this.tiers.containsKey(tier);
	}

	/** The configured tiers, in configuration order. */
	public Set<String> tiers() {
		return Collections.unmodifiableSet(this.tiers.keySet());
	}

	/** The configured endpoint groups and {@code default}. */
	public Set<String> groups() {
		return this.groups;
	}

}
