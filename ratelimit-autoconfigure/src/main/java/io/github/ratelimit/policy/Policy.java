package io.github.ratelimit.policy;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

import io.github.ratelimit.policy.Dimension;

/**
 * One limit of one tier, dimension and endpoint group, ready for the request path: its name, the names
 * of its bandwidths as reported in headers, and the prefix of its store keys are computed once here.
 * Identity-based equality on purpose: stores cache per-policy state in identity-hashed maps.
 */
public final class Policy {

	/** The tier name used for the per-IP backstop, which applies to every tier. */
	public static final String BACKSTOP = "backstop";

	/** The tier name used for limits declared on handlers, which apply to every tier. */
	public static final String INLINE = "inline";

	private final String name;

	private final String tier;

	private final Dimension dimension;

	private final String group;

	private final Limit limit;

	private final String keyPrefix;

	private final List<String> bandwidthNames;

	/**
	 * Creates a policy.
	 * @param tier the tier, or {@value #BACKSTOP}
	 * @param dimension whose budget it counts against
	 * @param group the endpoint group (or {@code default})
	 * @param limit the limit
	 * @param storeKeyPrefix the namespace of store keys ({@code rl:})
	 */
	public Policy(String tier, Dimension dimension, String group, Limit limit, String storeKeyPrefix) {
		this.tier = tier;
		this.dimension = dimension;
		this.group = group;
		this.limit = limit;
		this.name = tier + "-" + dimension.key() + "-" + group;
		// <prefix><scope>:<group>:<limits fingerprint>:<id>. The fingerprint gives a changed limit fresh
		// buckets instead of state shaped for the old one; the backstop and handler limits have scopes of
		// their own so they never share a bucket with a tier's limit.
		String scope = (isBackstop() || INLINE.equals(tier)) ? dimension.key() + "-" + tier : dimension.key();
		this.keyPrefix = storeKeyPrefix + scope + ":" + group + ":" + fingerprint(limit.spec()) + ":";
		List<Bandwidth> bandwidths = limit.bandwidths();
		this.bandwidthNames = (bandwidths.size() == 1) ? List.of(this.name)
				: bandwidths.stream().map((bandwidth) -> this.name + "-" + bandwidth.label()).toList();
	}

	/** The policy name, {@code <tier>-<dimension>-<group>} (for example {@code premium-user-auth}). */
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
	 * The policy of a limit declared on a handler, in one dimension; its "group" is the handler.
	 * @param inline the handler's limit
	 * @param dimension {@link Dimension#USER} or {@link Dimension#IP}
	 * @param storeKeyPrefix the namespace of store keys
	 * @return the policy, named {@code inline-<dimension>-<handler>}
	 */
	public static Policy inline(InlineLimit inline, Dimension dimension, String storeKeyPrefix) {
		return new Policy(INLINE, dimension, inline.handler(), inline.limit(), storeKeyPrefix);
	}

	/** Whether this is the per-IP backstop that applies to every tier. */
	public boolean isBackstop() {
		return BACKSTOP.equals(this.tier);
	}

	/**
	 * The name of bandwidth {@code index} in {@code RateLimit-Policy}: the policy name, suffixed with the
	 * window when the limit has several bandwidths ({@code premium-user-auth-1h}).
	 */
	public String bandwidthName(int index) {
		return this.bandwidthNames.get(index);
	}

	/** The store key of this policy's bucket for {@code id}, an already escaped identity id. */
	public String storeKey(String escapedId) {
		return this.keyPrefix.concat(escapedId);
	}

	@Override
	public String toString() {
		return this.name + "=" + this.limit.spec();
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
