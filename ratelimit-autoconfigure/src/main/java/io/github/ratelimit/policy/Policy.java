package io.github.ratelimit.policy;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * One limit of one tier (or other {@link PolicyScope scope}), dimension and endpoint
 * group, ready for the request path: its name and the names of its bandwidths as reported
 * in headers are computed once here. Identity-based equality on purpose: stores cache
 * per-policy state in identity-hashed maps.
 */
public final class Policy {

	/**
	 * The group name of a tier's quotas that count every request of the tier, whatever
	 * its group.
	 */
	public static final String ALL_GROUPS = "all";

	private final PolicyScope scope;

	private final String name;

	private final String tier;

	private final Dimension dimension;

	private final @Nullable String keyName;

	private final String group;

	private final Limit limit;

	private final List<String> bandwidthNames;

	private final Mode mode;

	private final int warnAtPercent;

	private final CountedResponses counts;

	private @Nullable Object storageSlot;

	/**
	 * Creates a policy of a tier that enforces its limit on every response.
	 * @param tier the tier
	 * @param dimension whose budget it counts against
	 * @param group the endpoint group ({@code default}, or {@value #ALL_GROUPS} for a
	 * tier-wide quota)
	 * @param limit the limit
	 */
	public Policy(String tier, Dimension dimension, String group, Limit limit) {
		this(tier, dimension, group, limit, Mode.ENFORCE, 0, CountedResponses.ALL);
	}

	/**
	 * Creates a policy of a tier.
	 * @param tier the tier
	 * @param dimension whose budget it counts against
	 * @param group the endpoint group ({@code default}, or {@value #ALL_GROUPS} for a
	 * tier-wide quota)
	 * @param limit the limit
	 * @param mode what the policy does to a request that exceeds it
	 * @param warnAtPercent from which share of the quota used on (1 to 99) responses
	 * carry a warning; 0 for none
	 * @param counts which responses count against the limit
	 * @throws IllegalArgumentException when {@code tier} is the name of another scope
	 * ({@code backstop}, {@code inline}, {@code group} or {@code override})
	 */
	public Policy(String tier, Dimension dimension, String group, Limit limit, Mode mode, int warnAtPercent,
			CountedResponses counts) {
		this(PolicyScope.TIER, checkedTier(tier), dimension, null, group, limit, mode, warnAtPercent, counts);
	}

	/**
	 * Creates a policy of a scope other than a tier's that enforces its limit on every
	 * response.
	 * @param scope the scope, not {@link PolicyScope#TIER}
	 * @param dimension whose budget it counts against
	 * @param group the endpoint group (or {@code default}; the handler of an
	 * {@link PolicyScope#INLINE} limit)
	 * @param limit the limit
	 */
	public Policy(PolicyScope scope, Dimension dimension, String group, Limit limit) {
		this(scope, dimension, group, limit, Mode.ENFORCE, 0, CountedResponses.ALL);
	}

	/**
	 * Creates a policy of a scope other than a tier's.
	 * @param scope the scope, not {@link PolicyScope#TIER}
	 * @param dimension whose budget it counts against
	 * @param group the endpoint group (or {@code default}; the handler of an
	 * {@link PolicyScope#INLINE} limit)
	 * @param limit the limit
	 * @param mode what the policy does to a request that exceeds it
	 * @param warnAtPercent from which share of the quota used on (1 to 99) responses
	 * carry a warning; 0 for none
	 * @param counts which responses count against the limit
	 */
	public Policy(PolicyScope scope, Dimension dimension, String group, Limit limit, Mode mode, int warnAtPercent,
			CountedResponses counts) {
		this(scope, scopeTier(scope), dimension, null, group, limit, mode, warnAtPercent, counts);
	}

	private Policy(PolicyScope scope, String tier, Dimension dimension, @Nullable String keyName, String group,
			Limit limit, Mode mode, int warnAtPercent, CountedResponses counts) {
		if (warnAtPercent < 0 || warnAtPercent > 99) {
			throw new IllegalArgumentException("warn-at must be between 1% and 99%, or 0 for none");
		}
		if ((dimension == Dimension.KEY) != (keyName != null)) {
			throw new IllegalArgumentException((keyName != null) ? "only a policy of the key dimension names a key"
					: "a policy of the key dimension names its key: use Policy.keyed");
		}
		this.scope = scope;
		this.keyName = keyName;
		this.counts = counts;
		this.mode = mode;
		this.warnAtPercent = warnAtPercent;
		this.tier = tier;
		this.dimension = dimension;
		this.group = group;
		this.limit = limit;
		// the service's budgets count one dimension only: service-export, not
		// service-service-export; a key's name stands for the dimension of a key's limit
		this.name = (scope == PolicyScope.SERVICE) ? tier + "-" + group
				: tier + "-" + ((keyName != null) ? keyName : dimension.key()) + "-" + group;
		List<Bandwidth> bandwidths = limit.bandwidths();
		this.bandwidthNames = (bandwidths.size() == 1) ? List.of(this.name)
				: bandwidths.stream().map((bandwidth) -> this.name + "-" + bandwidth.label()).toList();
	}

	/**
	 * Creates a policy of a tier counted per value of a key of the application's choosing
	 * ({@link Dimension#KEY}), named {@code <tier>-<key>-<group>}.
	 * @param tier the tier
	 * @param keyName the key ({@code ratelimit.keys.<key>})
	 * @param group the endpoint group ({@code default}, or {@value #ALL_GROUPS} for a
	 * tier-wide quota)
	 * @param limit the limit
	 * @param mode what the policy does to a request that exceeds it
	 * @param warnAtPercent from which share of the quota used on (1 to 99) responses
	 * carry a warning; 0 for none
	 * @param counts which responses count against the limit
	 * @return the policy
	 */
	public static Policy keyed(String tier, String keyName, String group, Limit limit, Mode mode, int warnAtPercent,
			CountedResponses counts) {
		return new Policy(PolicyScope.TIER, checkedTier(tier), Dimension.KEY, keyName, group, limit, mode,
				warnAtPercent, counts);
	}

	/**
	 * Creates a policy of a scope other than a tier's counted per value of a key of the
	 * application's choosing ({@link Dimension#KEY}), named
	 * {@code <scope>-<key>-<group>}.
	 * @param scope the scope, not {@link PolicyScope#TIER}
	 * @param keyName the key ({@code ratelimit.keys.<key>})
	 * @param group the endpoint group (or {@code default}; the handler of an
	 * {@link PolicyScope#INLINE} limit)
	 * @param limit the limit
	 * @param mode what the policy does to a request that exceeds it
	 * @param warnAtPercent from which share of the quota used on (1 to 99) responses
	 * carry a warning; 0 for none
	 * @param counts which responses count against the limit
	 * @return the policy
	 */
	public static Policy keyed(PolicyScope scope, String keyName, String group, Limit limit, Mode mode,
			int warnAtPercent, CountedResponses counts) {
		return new Policy(scope, scopeTier(scope), Dimension.KEY, keyName, group, limit, mode, warnAtPercent, counts);
	}

	private static String checkedTier(String tier) {
		for (PolicyScope scope : PolicyScope.values()) {
			if (scope != PolicyScope.LOGIN && tier.equals(scope.tierName())) {
				throw new IllegalArgumentException("'" + tier + "' names the " + scope + " scope, not a tier");
			}
		}
		return tier;
	}

	private static String scopeTier(PolicyScope scope) {
		String tier = scope.tierName();
		if (tier == null) {
			throw new IllegalArgumentException("a tier's policy is named by its tier");
		}
		return tier;
	}

	/** What kind of limit this is: a tier's, or one that applies to every tier. */
	public PolicyScope scope() {
		return this.scope;
	}

	/**
	 * The policy name, {@code <tier>-<dimension>-<group>} (for example
	 * {@code premium-user-auth}); a budget of the service is {@code service-<group>}; a
	 * key's name stands for the dimension in a policy of {@link Dimension#KEY}
	 * ({@code free-repo-default}).
	 */
	public String name() {
		return this.name;
	}

	/**
	 * The tier of a tier's policy; else the name of its scope
	 * ({@link PolicyScope#tierName()}).
	 */
	public String tier() {
		return this.tier;
	}

	public Dimension dimension() {
		return this.dimension;
	}

	/**
	 * The key a policy of {@link Dimension#KEY} counts by ({@code ratelimit.keys.<key>}),
	 * else {@code null}.
	 */
	public @Nullable String keyName() {
		return this.keyName;
	}

	/**
	 * Whose budget the policy counts, as headers, bodies and logs name it: the key's name
	 * for {@link Dimension#KEY}, else the dimension's ({@code user}, {@code org}).
	 */
	public String dimensionName() {
		return (this.keyName != null) ? this.keyName : this.dimension.key();
	}

	public String group() {
		return this.group;
	}

	public Limit limit() {
		return this.limit;
	}

	/**
	 * This policy with another mode and soft limit: the same name, limit and buckets. A
	 * group's own mode applies to the limits its requests inherit through
	 * {@code default}.
	 */
	Policy withTuning(Mode mode, int warnAtPercent) {
		if (mode == this.mode && warnAtPercent == this.warnAtPercent) {
			return this;
		}
		return new Policy(this, mode, warnAtPercent);
	}

	private Policy(Policy policy, Mode mode, int warnAtPercent) {
		this.scope = policy.scope;
		this.name = policy.name;
		this.tier = policy.tier;
		this.dimension = policy.dimension;
		this.keyName = policy.keyName;
		this.group = policy.group;
		this.limit = policy.limit;
		this.bandwidthNames = policy.bandwidthNames;
		// what storage computed from the scope, dimension, group and limit holds for
		// this copy
		this.storageSlot = policy.storageSlot;
		this.mode = mode;
		this.warnAtPercent = warnAtPercent;
		this.counts = policy.counts;
	}

	/**
	 * Which responses count against the limit; a request whose response is not one of
	 * them gets its tokens back when the response is done.
	 */
	public CountedResponses counts() {
		return this.counts;
	}

	/**
	 * Whether only some responses count against the limit (its tokens may be given back).
	 */
	public boolean countsByOutcome() {
		return !this.counts.all();
	}

	/** What the policy does to a request that exceeds it. */
	public Mode mode() {
		return this.mode;
	}

	/** Whether a shortfall refuses the request ({@link Mode#ENFORCE}). */
	public boolean enforced() {
		return this.mode == Mode.ENFORCE;
	}

	/**
	 * From which share of the quota used on responses carry a warning (percent); 0 for
	 * none.
	 */
	public int warnAtPercent() {
		return this.warnAtPercent;
	}

	/**
	 * Whether {@code remaining} of bandwidth {@code index} is past the soft limit: at
	 * most {@code (100 - warn-at)%} of its quota left.
	 */
	public boolean pastWarnAt(int index, long remaining) {
		if (this.warnAtPercent == 0) {
			return false;
		}
		long quota = this.limit.bandwidths().get(index).quota();
		// remaining / quota <= (100 - p) / 100, in integers
		return remaining * 100 <= quota * (100 - this.warnAtPercent);
	}

	/**
	 * The policy of a limit declared on a handler, in one dimension; its "group" is the
	 * handler.
	 * @param inline the handler's limit
	 * @param dimension {@link Dimension#USER} or {@link Dimension#IP}
	 * @return the policy, named {@code inline-<dimension>-<handler>}
	 */
	public static Policy inline(InlineLimit inline, Dimension dimension) {
		return inline(inline, dimension, PolicyOptions.DEFAULTS);
	}

	static Policy inline(InlineLimit inline, Dimension dimension, PolicyOptions options) {
		// annotations are parsed before the configuration is known: quotas take the
		// configured zone here
		Limit limit = inline.limit().has(CalendarQuota.class) ? LimitParser.parse(inline.limit().spec(), options.zone())
				: inline.limit();
		return new Policy(PolicyScope.INLINE, dimension, inline.handler(), limit, options.mode(),
				options.warnAtPercent(), inline.counts());
	}

	/**
	 * The policy of a limit declared on a handler counted per what its {@code per} names
	 * (a dimension, or a key: {@code inline-<key>-<handler>}).
	 */
	static Policy inlinePer(InlineLimit inline, PolicyOptions options) {
		Dimension dimension = inline.perDimension();
		if (dimension != Dimension.KEY) {
			return inline(inline, (dimension != null) ? dimension : Dimension.USER, options);
		}
		Limit limit = inline.limit().has(CalendarQuota.class) ? LimitParser.parse(inline.limit().spec(), options.zone())
				: inline.limit();
		return keyed(PolicyScope.INLINE, inline.per(), inline.handler(), limit, options.mode(), options.warnAtPercent(),
				inline.counts());
	}

	/** Whether this is the per-IP backstop that applies to every tier. */
	public boolean isBackstop() {
		return this.scope == PolicyScope.BACKSTOP;
	}

	/**
	 * The name of bandwidth {@code index} in {@code RateLimit-Policy}: the policy name,
	 * suffixed with the window when the limit has several bandwidths
	 * ({@code premium-user-auth-1h}).
	 */
	public String bandwidthName(int index) {
		return this.bandwidthNames.get(index);
	}

	/**
	 * What the storage layer computed from this policy and keeps with it, so that it is
	 * computed once per policy instead of looked up on every request; {@code null} until
	 * set. The policy neither reads nor interprets it.
	 */
	public @Nullable Object storageSlot() {
		return this.storageSlot;
	}

	/**
	 * Keeps the storage layer's value for this policy ({@link #storageSlot()}). It is
	 * read without synchronization, so it must be immutable (final fields only): a thread
	 * sees either {@code null} or a whole value, and computes it again at worst.
	 * @param value what storage derived from the scope, dimension, group and limit
	 */
	public void storageSlot(Object value) {
		this.storageSlot = value;
	}

	@Override
	public String toString() {
		return this.name + "=" + this.limit.spec() + (this.counts.all() ? "" : " counting " + this.counts);
	}

}
