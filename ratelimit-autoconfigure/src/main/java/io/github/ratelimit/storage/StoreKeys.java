package io.github.ratelimit.storage;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;

import io.github.ratelimit.policy.Bandwidth;
import io.github.ratelimit.policy.CalendarQuota;
import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.FixedWindow;
import io.github.ratelimit.policy.LeakyBucket;
import io.github.ratelimit.policy.Limit;
import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.policy.PolicyScope;
import io.github.ratelimit.policy.SlidingWindow;
import io.github.ratelimit.policy.TokenBucket;

/**
 * The layout of store keys under the configured namespace
 * ({@code ratelimit.storage.key-prefix}):
 * {@code <prefix><scope>:<group>:<shape fingerprint>:<id>}, for example
 * {@code rl:user:auth:1a2b3c4d:alice}.
 * <ul>
 * <li>The scope is the dimension; the backstop's, handler limits' and groups' caps have
 * scopes of their own ({@code ip-backstop}, {@code user-inline}, {@code user-group}) so
 * they never share a bucket with a tier's limit, and so do tier-wide quotas
 * ({@code org-all}). An override counts in the buckets of the tier limit it replaces. The
 * login protection's budgets live under {@code <prefix>login:}. A budget of the service
 * is one key per group that every caller shares ({@code rl:service:export:1a2b3c4d:all}):
 * in Redis Cluster, one slot and a hot key. A limit by a key of the application's
 * choosing names the key after the scope: {@code key.repo}, {@code key-inline.repo},
 * {@code key-backstop.tenant}.</li>
 * <li>The shape is the kinds and windows of the limit's items, not their amounts: a limit
 * changed to other amounts (or an override) keeps the buckets and the tokens spent in
 * them; a limit over other windows gets fresh ones instead of state shaped for the old
 * one. A leaky bucket's rate is part of its shape (its backlog is kept in units of
 * {@code 1/rate} ms), and each kind has its own: a window changed from fixed to sliding
 * starts afresh.</li>
 * <li>Ids are escaped: plain short ids stay readable for operators; anything longer or
 * with other characters (braces of a Redis Cluster hash tag among them) is replaced by a
 * hash, so no caller input can reach into another key, pick its cluster slot or bloat the
 * store.</li>
 * </ul>
 * A policy's key prefix is computed on its first request and kept with the policy
 * ({@link Policy#storageSlot()}): a key costs one concatenation, and no lookup.
 */
public final class StoreKeys {

	/** The default namespace of store keys. */
	public static final String DEFAULT_PREFIX = "rl:";

	private static final int MAX_PLAIN_LENGTH = 64;

	private final String prefix;

	/**
	 * Creates the layout.
	 * @param prefix the namespace of every key ({@code ratelimit.storage.key-prefix})
	 */
	public StoreKeys(String prefix) {
		this.prefix = prefix;
	}

	/** The namespace of every key. */
	public String prefix() {
		return this.prefix;
	}

	/**
	 * The key of a policy's bucket for one caller.
	 * @param policy the policy
	 * @param id the caller's id in the policy's dimension, as identified (escaped here)
	 * @return the key
	 */
	public String key(Policy policy, String id) {
		return keys(policy).prefix.concat(escape(id));
	}

	/**
	 * A short hash of the policy's exact limit, for stores that cannot reshape a bucket's
	 * state in place and need a bucket per exact limit (the Bucket4j strategy).
	 * @param policy the policy
	 * @return 8 hex digits
	 */
	public static String limitFingerprint(Policy policy) {
		return (policy.storageSlot() instanceof PolicyKeys keys) ? keys.limitFingerprint
				: fingerprint(policy.limit().spec());
	}

	private PolicyKeys keys(Policy policy) {
		if (policy.storageSlot() instanceof PolicyKeys keys && keys.storePrefix.equals(this.prefix)) {
			return keys;
		}
		PolicyKeys keys = new PolicyKeys(this.prefix, keyPrefix(policy), fingerprint(policy.limit().spec()));
		policy.storageSlot(keys);
		return keys;
	}

	private String keyPrefix(Policy policy) {
		PolicyScope kind = policy.scope();
		String group = policy.group();
		Dimension dimension = policy.dimension();
		// the service's dimension is its own already: its budget of every request is
		// service:all
		boolean tierWide = Policy.ALL_GROUPS.equals(group) && kind != PolicyScope.SERVICE;
		boolean ownScope = tierWide || kind == PolicyScope.BACKSTOP || kind == PolicyScope.INLINE
				|| kind == PolicyScope.GROUP;
		String scope = ownScope ? dimension.key() + "-" + (tierWide ? Policy.ALL_GROUPS : policy.tier())
				: dimension.key();
		String keyName = policy.keyName();
		if (keyName != null) {
			// after the first '.', which no scope holds: a key's name cannot pass for a
			// scope, nor one key's for another's
			scope = scope + "." + keyName;
		}
		// a namespace of its own: no tier or group of the application can share these
		// buckets
		String namespace = (kind == PolicyScope.LOGIN) ? this.prefix + policy.tier() + ":" : this.prefix;
		return namespace + scope + ":" + group + ":" + fingerprint(shape(policy.limit())) + ":";
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
			else if (bandwidth instanceof FixedWindow window) {
				shape.append('f').append(window.period().toMillis());
			}
			else if (bandwidth instanceof SlidingWindow window) {
				shape.append('s').append(window.periodMillis());
			}
			else if (bandwidth instanceof LeakyBucket leaky) {
				// a backlog is kept in units of 1/rate ms: the rate shapes the state too
				shape.append('l').append(leaky.rate()).append('/').append(leaky.periodMillis());
			}
			else {
				shape.append('c');
			}
			shape.append(';');
		}
		return shape.toString();
	}

	private static String fingerprint(String text) {
		return HexFormat.of().formatHex(sha256(text), 0, 4);
	}

	/** Escapes an id for the last segment of a store key. */
	public static String escape(String id) {
		int length = id.length();
		if (length == 0 || length > MAX_PLAIN_LENGTH) {
			return hashed(id);
		}
		for (int i = 0; i < length; i++) {
			if (!isPlain(id.charAt(i))) {
				return hashed(id);
			}
		}
		return id;
	}

	private static boolean isPlain(char c) {
		return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '-'
				|| c == '_' || c == '@' || c == ':' || c == '/';
	}

	/**
	 * A short hash of an id ({@code #} and 22 characters of SHA-256, base64url). '#'
	 * never occurs in a plain id, so a hashed id cannot equal a plain one.
	 * @param id the id
	 * @return the hash
	 */
	public static String hashed(String id) {
		return "#" + Base64.getUrlEncoder().withoutPadding().encodeToString(sha256(id)).substring(0, 22);
	}

	private static byte[] sha256(String text) {
		try {
			return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * What a layout keeps with a policy: the prefix of its keys under one namespace, and
	 * the fingerprint of its exact limit.
	 */
	private record PolicyKeys(String storePrefix, String prefix, String limitFingerprint) {
	}

}
