package io.github.ratelimit.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import io.github.ratelimit.control.AccessRule;
import io.github.ratelimit.control.BanRules;
import io.github.ratelimit.control.Subject;
import io.github.ratelimit.policy.InvalidRateLimitConfigurationException;
import io.github.ratelimit.policy.PolicyTable;

/**
 * Maps the access rules, bans and runtime control settings of {@link RateLimitProperties}
 * into the runtime control's parts, failing on the first invalid property with an
 * {@link InvalidRateLimitConfigurationException} that names it and shows a valid value.
 */
final class RuntimeControlMapper {

	private RuntimeControlMapper() {
	}

	/**
	 * The configured deny and allow rules, as the binder parsed them; an allow rule's
	 * tier must be configured.
	 */
	static List<AccessRule> accessRules(RateLimitProperties.Access access, PolicyTable table) {
		List<AccessRule> rules = new ArrayList<>();
		for (Subject subject : access.getDeny()) {
			rules.add(new AccessRule(AccessRule.Access.DENY, subject, null, null));
		}
		List<AccessRule> allow = access.getAllow();
		for (int i = 0; i < allow.size(); i++) {
			AccessRule rule = allow.get(i);
			if (rule.tier() != null && !table.hasTier(rule.tier())) {
				throw new InvalidRateLimitConfigurationException("ratelimit.access.allow[" + i + "]", rule.spec(),
						"unknown tier '" + rule.tier() + "'; configured tiers are " + table.tiers(),
						AllowRuleConverter.EXAMPLE);
			}
			rules.add(rule);
		}
		return rules;
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

	static void checkBans(String property, BanRules.Settings settings) {
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

	static void checkPositive(String property, @Nullable Duration value, String example) {
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

}
