package io.github.ratelimit.openapi;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import io.github.ratelimit.policy.Classification;
import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.Mode;
import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.policy.PolicyScope;
import io.github.ratelimit.policy.PolicyTable;

/**
 * The limits on the requests of one operation, read from the classification the filter
 * makes of them and the policy table it decides them with: each tier's, and those that
 * apply whatever the tier (the per-IP backstop, the service's budgets shared by every
 * caller, the handler's own limit, the group's concurrency cap). What the limiter can
 * answer follows from them: 429 when an enforced limit can run out, 403 when one blocks
 * the tier or can never hold the request's cost.
 */
final class OperationLimits {

	/**
	 * The key of the limits of the handler's own and of the group's concurrency cap:
	 * counted per verified user, else per client address.
	 */
	static final String USER_OR_IP = "user-or-ip";

	private final String group;

	private final long cost;

	private final Map<String, Map<String, List<String>>> tiers = new LinkedHashMap<>();

	private final Map<String, Map<String, List<String>>> everyTier = new LinkedHashMap<>();

	private boolean rejects;

	private boolean forbids;

	private boolean reports;

	private OperationLimits(String group, long cost) {
		this.group = group;
		this.cost = cost;
	}

	/**
	 * The limits on requests of a classification (not an excluded one).
	 * @param classification what the classifier makes of the operation's requests
	 * @param table the policy table in force
	 * @return the limits
	 */
	static OperationLimits of(Classification classification, PolicyTable table) {
		String group = classification.group();
		OperationLimits limits = new OperationLimits(group, classification.cost());
		for (String tier : table.tiers()) {
			for (Policy policy : table.policies(tier, group)) {
				if (!policy.scope().tierLimit()) {
					// the backstop's and the service's, the same for every tier
					limits.add(limits.everyTier, policy.tier(), policy.dimensionName(), policy);
				}
				else {
					limits.add(limits.tiers, tier, policy.dimensionName(), policy);
				}
			}
		}
		// a caller of no configured tier gets the backstop and the service's budgets
		// alone
		for (Policy policy : table.backstop(group)) {
			limits.add(limits.everyTier, policy.tier(), policy.dimensionName(), policy);
		}
		if (classification.inline() != null) {
			Policy inline = table.inline(classification.inline(), true);
			limits.add(limits.everyTier, PolicyScope.INLINE.tierName(),
					classification.inline().per().isEmpty() ? USER_OR_IP : inline.dimensionName(), inline);
		}
		Policy concurrency = table.groupConcurrency(group, true);
		if (concurrency != null) {
			limits.add(limits.everyTier, PolicyScope.GROUP.tierName(), USER_OR_IP, concurrency);
		}
		return limits;
	}

	private void add(Map<String, Map<String, List<String>>> target, @Nullable String owner, String per, Policy policy) {
		List<String> labels = target.computeIfAbsent(String.valueOf(owner), (key) -> new LinkedHashMap<>())
			.computeIfAbsent(per, (key) -> new ArrayList<>());
		String label = label(policy);
		if (labels.contains(label)) {
			// the backstop, met once per tier
			return;
		}
		labels.add(label);
		boolean neverHoldsCost = this.cost > policy.limit().maxCost();
		if (policy.enforced()) {
			this.rejects |= !policy.limit().blocked() && !neverHoldsCost;
			this.forbids |= policy.limit().blocked() || neverHoldsCost;
		}
		this.reports |= policy.mode() != Mode.OBSERVE;
	}

	/**
	 * The limit string, with what makes it act otherwise than a plain limit:
	 * {@code 10/1m (observe)}, {@code 10/1m (counts failures)}.
	 */
	private static String label(Policy policy) {
		List<String> qualifiers = new ArrayList<>(2);
		if (policy.mode() != Mode.ENFORCE) {
			qualifiers.add(policy.mode().name().toLowerCase(Locale.ROOT));
		}
		if (policy.countsByOutcome()) {
			qualifiers.add("counts " + policy.counts().spec());
		}
		String spec = policy.limit().spec();
		return qualifiers.isEmpty() ? spec : spec + " (" + String.join(", ", qualifiers) + ")";
	}

	/** The endpoint group of the operation. */
	String group() {
		return this.group;
	}

	/** What a request of the operation costs. */
	long cost() {
		return this.cost;
	}

	/**
	 * The limits of each configured tier that has some, by dimension key ({@code ip},
	 * {@code user}, ...), in configuration order; several under one dimension all apply.
	 */
	Map<String, Map<String, List<String>>> tiers() {
		return this.tiers;
	}

	/**
	 * The limits that apply whatever the tier, by the name their policies carry
	 * ({@code backstop}, {@code service}, {@code inline}, {@code group}), then by
	 * dimension key or {@value #USER_OR_IP}.
	 */
	Map<String, Map<String, List<String>>> everyTier() {
		return this.everyTier;
	}

	/** Whether any limit applies to the operation. */
	boolean any() {
		return !this.tiers.isEmpty() || !this.everyTier.isEmpty();
	}

	/** Whether an enforced limit can run out: the operation can answer 429. */
	boolean rejects() {
		return this.rejects;
	}

	/**
	 * Whether an enforced limit blocks a tier ({@code 0}) or can never hold the cost of a
	 * request: the operation can answer 403.
	 */
	boolean forbids() {
		return this.forbids;
	}

	/**
	 * Whether a limit is in a mode that shows in responses (not {@code observe}): they
	 * carry the rate-limit headers.
	 */
	boolean reports() {
		return this.reports;
	}

	/**
	 * The {@code x-ratelimit} extension:
	 * {@code {"group":"reports","cost":5,"tiers":{"anonymous":{"ip":["10/1m"]}},"every-tier":{"backstop":{"ip":["600/1m"]}}}}.
	 */
	Map<String, Object> extension() {
		Map<String, Object> extension = new LinkedHashMap<>();
		extension.put("group", this.group);
		extension.put("cost", this.cost);
		extension.put("tiers", this.tiers);
		if (!this.everyTier.isEmpty()) {
			extension.put("every-tier", this.everyTier);
		}
		return extension;
	}

	/** A Markdown table of the limits, for the operation's description. */
	String table() {
		StringBuilder table = new StringBuilder(256).append("**Rate limits** (group `")
			.append(this.group)
			.append("`, ")
			.append(this.cost)
			.append((this.cost == 1) ? " token" : " tokens")
			.append(" a request)\n\n| tier | counted per | limits |\n|---|---|---|\n");
		this.tiers.forEach((tier, byDimension) -> byDimension.forEach((per, labels) -> row(table, tier, per, labels)));
		this.everyTier.forEach((scope, byDimension) -> byDimension
			.forEach((per, labels) -> row(table, "every tier", perName(per) + " (" + scopeName(scope) + ")", labels)));
		return table.toString();
	}

	private static void row(StringBuilder table, String tier, String per, List<String> labels) {
		table.append("| ")
			.append(tier)
			.append(" | ")
			.append(perName(per))
			.append(" | ")
			.append(String.join("; ", labels))
			.append(" |\n");
	}

	private static String perName(String per) {
		if (per.equals(Dimension.SERVICE.key())) {
			return "all callers together";
		}
		return per.equals(USER_OR_IP) ? "user, else ip" : per;
	}

	private static String scopeName(String scope) {
		if (scope.equals(PolicyScope.INLINE.tierName())) {
			return "this operation's own";
		}
		return scope.equals(PolicyScope.GROUP.tierName()) ? "group concurrency" : scope;
	}

}
