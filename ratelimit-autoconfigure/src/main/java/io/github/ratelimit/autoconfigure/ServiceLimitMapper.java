package io.github.ratelimit.autoconfigure;

import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

import io.github.ratelimit.policy.Classification;
import io.github.ratelimit.policy.InvalidRateLimitConfigurationException;
import io.github.ratelimit.policy.Limit;
import io.github.ratelimit.policy.Policy;

/**
 * Checks the budgets of the service ({@code ratelimit.service}) before they go into the
 * policy table: each is for a configured group, {@code default} or {@code all}, and
 * admits someone (a budget of 0 would refuse every caller as if the service were busy
 * forever; closing a group is the backstop's {@code 0}).
 */
final class ServiceLimitMapper {

	/** The prefix of the service's budgets. */
	static final String PROPERTY = "ratelimit.service";

	private ServiceLimitMapper() {
	}

	/**
	 * The budgets of the service, checked.
	 * @param properties the properties
	 * @return group (or {@code default}, or {@value Policy#ALL_GROUPS}) to limit, as
	 * bound
	 * @throws InvalidRateLimitConfigurationException naming the first invalid budget
	 */
	static Map<String, Limit> serviceLimits(RateLimitProperties properties) {
		Set<String> known = new LinkedHashSet<>(properties.getGroups().keySet());
		known.add(Classification.DEFAULT_GROUP);
		properties.getService().forEach((group, limit) -> {
			String property = PROPERTY + "." + group;
			if (!known.contains(group) && !Policy.ALL_GROUPS.equals(group)) {
				throw new InvalidRateLimitConfigurationException(property, limit.spec(),
						"unknown endpoint group '" + group + "'; known groups are " + known + " and "
								+ Policy.ALL_GROUPS + " (every request of the API); declare groups under "
								+ "ratelimit.groups",
						PROPERTY + "." + Classification.DEFAULT_GROUP + "=1000/1m");
			}
			if (limit.blocked()) {
				throw new InvalidRateLimitConfigurationException(property, limit.spec(),
						"a budget of 0 would refuse every caller as a busy service; to close the group to "
								+ "every caller, set ratelimit.ip." + group + "=0",
						property + "=1000/1m");
			}
		});
		return properties.getService();
	}

}
