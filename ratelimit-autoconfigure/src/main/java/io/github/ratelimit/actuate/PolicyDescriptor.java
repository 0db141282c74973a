package io.github.ratelimit.actuate;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import org.jspecify.annotations.Nullable;

import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.policy.PolicyTable;

/**
 * One policy of the table in force.
 *
 * @param name the policy's name, as headers report it
 * @param dimension what it counts by ({@code user}, {@code org}, {@code token},
 * {@code ip}, {@code account}, {@code service} for a budget every caller shares, or the
 * name of a key of the application's choosing)
 * @param limit the limit, as written
 * @param mode {@code enforce} or {@code observe}
 * @param warnAt the share of the limit that warns ({@code 80%}), left out when the policy
 * does not warn
 */
public record PolicyDescriptor(String name, String dimension, String limit, String mode,
		@JsonInclude(JsonInclude.Include.NON_NULL) @Nullable String warnAt) {

	static PolicyDescriptor of(Policy policy) {
		return new PolicyDescriptor(policy.name(), policy.dimensionName(), policy.limit().spec(),
				policy.mode().name().toLowerCase(Locale.ROOT),
				(policy.warnAtPercent() > 0) ? policy.warnAtPercent() + "%" : null);
	}

	/**
	 * The table by tier, then by group: the policies a request of that tier and group
	 * meets, with the group's concurrency cap.
	 */
	static Map<String, Map<String, List<PolicyDescriptor>>> tableOf(PolicyTable table) {
		Map<String, Map<String, List<PolicyDescriptor>>> tiers = new LinkedHashMap<>();
		for (String tier : table.tiers()) {
			Map<String, List<PolicyDescriptor>> groups = new LinkedHashMap<>();
			for (String group : table.groups()) {
				List<PolicyDescriptor> policies = new ArrayList<>();
				table.policies(tier, group).forEach((policy) -> policies.add(of(policy)));
				Policy concurrency = table.groupConcurrency(group, true);
				if (concurrency != null) {
					policies.add(of(concurrency));
				}
				groups.put(group, policies);
			}
			tiers.put(tier, groups);
		}
		return tiers;
	}

}
