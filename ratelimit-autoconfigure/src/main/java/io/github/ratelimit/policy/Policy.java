package io.github.ratelimit.policy;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/**
 * One limit of one tier, dimension and endpoint group, ready for the request path: its
 * name, the names of its bandwidths as reported in headers, and the prefix of its store
 * keys are computed once here. Identity-based equality on purpose: stores cache
 * per-policy state in identity-hashed maps.
 */
public final class Policy {

	/** The tier name used for the per-IP backstop, which applies to every tier. */
	public static final String BACKSTOP = "backstop";

	/** The tier name used for limits declared on handlers, which apply to every tier. */
	public static final String INLINE = "inline";

	/**
	 * The tier name used for a group's own concurrency cap, which applies to every tier.
	 */
	public static final String GROUP = "group";

	/**
	 * The tier name of limits set at runtime for one identity (they count in the tier's
	 * buckets).
	 */
	public static final String OVERRIDE = "override";

	/**
	 * The group name of a tier's quotas that count every request of the tier, whatever
	 * its group.
	 */
	public static final String ALL_GROUPS = "all";

	private final String name;

	private final String tier;

	private final Dimension dimension;

	private final String group;

	private final Limit limit;

	private final String keyPrefix;

	private final List<String> bandwidthNames;

	private final String limitFingerprint;

	private final Mode mode;

	private final int warnAtPercent;

	private final CountedResponses counts;

	/**
	 * Creates a policy.
	 * @param tier the tier, or {@value #BACKSTOP}
	 * @param dimension whose budget it counts against
	 * @param group the endpoint group (or {@code default})
	 * @param limit the limit
	 * @param storeKeyPrefix the namespace of store keys ({@code rl:})
	 */
	public Policy(String tier, Dimension dimension, String group, Limit limit, String storeKeyPrefix) {
		this(tier, dimension, group, limit, storeKeyPrefix, Mode.ENFORCE, 0);
	}

	/**
	 * Creates a policy.
	 * @param tier the tier, {@value #BACKSTOP}, {@value #INLINE} or {@value #GROUP}
	 * @param dimension whose budget it counts against
	 * @param group the endpoint group ({@code default}, or {@value #ALL_GROUPS} for a
	 * tier-wide quota)
	 * @param limit the limit
	 * @param storeKeyPrefix the namespace of store keys ({@code rl:})
	 * @param mode what the policy does to a request that exceeds it
	 * @param warnAtPercent from which share of the quota used on (1 to 99) responses
	 * carry a warning; 0 for none
	 */
	public Policy(String tier, Dimension dimension, String group, Limit limit, String storeKeyPrefix, Mode mode,
			int warnAtPercent) {
		this(tier, dimension, group, limit, storeKeyPrefix, mode, warnAtPercent, CountedResponses.ALL);
	}

	/**
	 * Creates a policy.
	 * @param tier the tier, {@value #BACKSTOP}, {@value #INLINE} or {@value #GROUP}
	 * @param dimension whose budget it counts against
	 * @param group the endpoint group ({@code default}, or {@value #ALL_GROUPS} for a
	 * tier-wide quota)
	 * @param limit the limit
	 * @param storeKeyPrefix the namespace of store keys ({@code rl:})
	 * @param mode what the policy does to a request that exceeds it
	 * @param warnAtPercent from which share of the quota used on (1 to 99) responses
	 * carry a warning; 0 for none
	 * @param counts which responses count against the limit
	 */
	public Policy(String tier, Dimension dimension, String group, Limit limit, String storeKeyPrefix, Mode mode,
			int warnAtPercent, CountedResponses counts) {
		this.counts = counts;
		if (warnAtPercent < 0 || warnAtPercent > 99) {
			throw new IllegalArgumentException("warn-at must be between 1% and 99%, or 0 for none");
		}
		this.mode = mode;
		this.warnAtPercent = warnAtPercent;
		this.tier = tier;
		this.dimension = dimension;
		this.group = group;
		this.limit = limit;
		this.name = tier + "-" + dimension.key() + "-" + group;
		// <prefix><scope>:<group>:<shape fingerprint>:<id>. The shape is the kinds and
		// windows of the items, not
		// their amounts: a limit changed to other amounts (or an override) keeps the
		// buckets and the tokens spent
		// in them, a limit over other windows gets fresh ones instead of state shaped for
		// the old one. The
		// backstop and handler limits have scopes of their own so they never share a
		// bucket with a tier's limit.
		boolean ownScope = isBackstop() || INLINE.equals(tier) || GROUP.equals(tier) || ALL_GROUPS.equals(group);
		String scope = ownScope ? dimension.key() + "-" + (ALL_GROUPS.equals(group) ? ALL_GROUPS : tier)
				: dimension.key();
		this.keyPrefix = storeKeyPrefix + scope + ":" + group + ":" + fingerprint(shape(limit)) + ":";
		this.limitFingerprint = fingerprint(limit.spec());
		List<Bandwidth> bandwidths = limit.bandwidths();
		this.bandwidthNames = (bandwidths.size() == 1) ? List.of(this.name)
				: bandwidths.stream().map((bandwidth) -> this.name + "-" + bandwidth.label()).toList();
	}

	/**
	 * The policy name, {@code <tier>-<dimension>-<group>} (for example
	 * {@code premium-user-auth}).
	 */
	public String name() {
		return this.name;
	}

	public String tier() {
		return this.tier;
	}

	public Dimension dimension() {
		return this.dimension;
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
		this.name = policy.name;
		this.tier = policy.tier;
		this.dimension = policy.dimension;
		this.group = policy.group;
		this.limit = policy.limit;
		this.keyPrefix = policy.keyPrefix;
		this.bandwidthNames = policy.bandwidthNames;
		this.limitFingerprint = policy.limitFingerprint;
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
	 * @param storeKeyPrefix the namespace of store keys
	 * @return the policy, named {@code inline-<dimension>-<handler>}
	 */
	public static Policy inline(InlineLimit inline, Dimension dimension, String storeKeyPrefix) {
		return inline(inline, dimension, storeKeyPrefix, PolicyOptions.DEFAULTS);
	}

	static Policy inline(InlineLimit inline, Dimension dimension, String storeKeyPrefix, PolicyOptions options) {
		// annotations are parsed before the configuration is known: quotas take the
		// configured zone here
		Limit limit = inline.limit().has(CalendarQuota.class) ? LimitParser.parse(inline.limit().spec(), options.zone())
				: inline.limit();
		return new Policy(INLINE, dimension, inline.handler(), limit, storeKeyPrefix, options.mode(),
				options.warnAtPercent(), inline.counts());
	}

	/** Whether this is the per-IP backstop that applies to every tier. */
	public boolean isBackstop() {
		return BACKSTOP.equals(this.tier);
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
	 * The store key of this policy's bucket for {@code id}, an already escaped identity
	 * id.
	 */
	public String storeKey(String escapedId) {
		return this.keyPrefix.concat(escapedId);
	}

	/**
	 * A short hash of the limit's exact text, for stores that cannot reshape a bucket's
	 * state in place and need a bucket per exact limit (the Bucket4j strategy).
	 */
	public String limitFingerprint() {
		return this.limitFingerprint;
	}

	// the kinds and windows of the items, in order: what a bucket's state is shaped by
	private static String shape(Limit limit) {
		StringBuilder shape = new StringBuilder();
		for (Bandwidth bandwidth : limit.bandwidths()) {
			if (bandwidth instanceof TokenBucket bucket) {
				shape.append('b').append(bucket.period().toMillis());
			}
			else if (bandwidth instanceof CalendarQuota quota) {
				shape.append('q').append(quota.period()).append(quota.zone());
			}
			else {
				shape.append('c');
			}
			shape.append(';');
		}
		return shape.toString();
	}

	@Override
	public String toString() {
		return this.name + "=" + this.limit.spec() + (this.counts.all() ? "" : " counting " + this.counts);
	}

	private static String fingerprint(String spec) {
		try {
			byte[] digest = MessageDigest.getInstance("SHA-256").digest(spec.getBytes(StandardCharsets.UTF_8));
			return HexFormat.of().formatHex(digest, 0, 4);
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
