package io.github.ratelimit.control;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import io.github.ratelimit.identity.Identity;

/**
 * Allow and deny rules, compiled for the request path: names in hash maps, ranges in a
 * list. A deny rule wins over an allow rule; among allow rules a named one (user, key,
 * org) wins over a range. Expired rules are skipped as soon as they end, whether or not
 * the store has dropped them yet.
 */
public final class AccessRules {

	/** No rules. */
	public static final AccessRules NONE = new AccessRules(List.of());

	private final List<AccessRule> rules;

	private final Map<String, AccessRule> denyNames = new HashMap<>();

	private final List<AccessRule> denyRanges = new ArrayList<>();

	private final Map<String, AccessRule> allowNames = new HashMap<>();

	private final List<AccessRule> allowRanges = new ArrayList<>();

	private final boolean needsAddress;

	public AccessRules(List<AccessRule> rules) {
		this.rules = List.copyOf(rules);
		for (AccessRule rule : this.rules) {
			boolean deny = rule.access() == AccessRule.Access.DENY;
			if (rule.subject().kind() == Subject.Kind.IP) {
				(deny ? this.denyRanges : this.allowRanges).add(rule);
			}
			else {
				(deny ? this.denyNames : this.allowNames).put(rule.subject().toString(), rule);
			}
		}
		this.needsAddress = !this.denyRanges.isEmpty() || !this.allowRanges.isEmpty();
	}

	/** Whether there is no rule at all (the request path then skips the check). */
	public boolean isEmpty() {
		return this.rules.isEmpty();
	}

	/** Whether some rule matches addresses, so the caller's address must be resolved. */
	public boolean needsAddress() {
		return this.needsAddress;
	}

	/** Every rule, configured ones first. */
	public List<AccessRule> rules() {
		return this.rules;
	}

	/**
	 * What the rules say about a caller.
	 * @param identity the caller
	 * @param address the client address, not grouped (only read when
	 * {@link #needsAddress()})
	 * @param nowMillis the time, for expiry
	 */
	public AccessVerdict check(Identity identity, String address, long nowMillis) {
		AccessRule rule = named(this.denyNames, identity, nowMillis);
		if (rule == null) {
			rule = ranged(this.denyRanges, identity, address, nowMillis);
		}
		if (rule == null) {
			rule = named(this.allowNames, identity, nowMillis);
		}
		if (rule == null) {
			rule = ranged(this.allowRanges, identity, address, nowMillis);
		}
		return (rule != null) ? new AccessVerdict(rule) : AccessVerdict.NONE;
	}

	/**
	 * What the address rules alone say about a client address, before its caller is
	 * known: a deny range that holds it, else an allow range that holds it. A deny range
	 * refuses whoever calls, so a denial here is the one {@link #check} gives; an allow
	 * range may still lose to a named allow rule once the caller is known.
	 * @param address the client address, not grouped
	 * @param nowMillis the time, for expiry
	 */
	public AccessVerdict checkAddress(String address, long nowMillis) {
		AccessRule rule = range(this.denyRanges, address, nowMillis);
		if (rule == null) {
			rule = range(this.allowRanges, address, nowMillis);
		}
		return (rule != null) ? new AccessVerdict(rule) : AccessVerdict.NONE;
	}

	private static @Nullable AccessRule range(List<AccessRule> rules, String address, long nowMillis) {
		for (AccessRule rule : rules) {
			if (!rule.expired(nowMillis) && rule.subject().range().contains(address)) {
				return rule;
			}
		}
		return null;
	}

	private static @Nullable AccessRule named(Map<String, AccessRule> rules, Identity identity, long nowMillis) {
		if (rules.isEmpty()) {
			return null;
		}
		AccessRule rule = live(rules, (identity.user() != null) ? "user:" + identity.user() : null, nowMillis);
		if (rule == null) {
			rule = live(rules, (identity.token() != null) ? "key:" + identity.token() : null, nowMillis);
		}
		if (rule == null) {
			rule = live(rules, (identity.org() != null) ? "org:" + identity.org() : null, nowMillis);
		}
		return rule;
	}

	private static @Nullable AccessRule live(Map<String, AccessRule> rules, @Nullable String key, long nowMillis) {
		if (key == null) {
			return null;
		}
		AccessRule rule = rules.get(key);
		return (rule != null && !rule.expired(nowMillis)) ? rule : null;
	}

	private static @Nullable AccessRule ranged(List<AccessRule> rules, Identity identity, String address,
			long nowMillis) {
		for (AccessRule rule : rules) {
			if (!rule.expired(nowMillis) && rule.subject().matches(identity, address)) {
				return rule;
			}
		}
		return null;
	}

}
