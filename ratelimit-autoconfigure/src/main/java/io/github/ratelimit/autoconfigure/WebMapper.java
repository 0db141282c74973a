package io.github.ratelimit.autoconfigure;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import org.springframework.core.env.Environment;

import io.github.ratelimit.http.RateLimitHeaders;
import io.github.ratelimit.policy.InlineLimit;
import io.github.ratelimit.policy.InvalidRateLimitConfigurationException;
import io.github.ratelimit.policy.PolicyTable;
import io.github.ratelimit.web.EndpointClassifier;
import io.github.ratelimit.web.EndpointRule;
import io.github.ratelimit.web.EndpointRules;

/**
 * Maps the headers, endpoint groups and exclusions of {@link RateLimitProperties} into
 * the web adapters' parts, failing on the first invalid property with an
 * {@link InvalidRateLimitConfigurationException} that names it and shows a valid value.
 */
final class WebMapper {

	private WebMapper() {
	}

	static RateLimitHeaders headers(RateLimitProperties.Headers headers) {
		// the binder has read each style (an unknown one fails there, with its origin and
		// the valid values)
		try {
			return RateLimitHeaders.of(new LinkedHashSet<>(headers.getStyles()));
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidRateLimitConfigurationException("ratelimit.headers.styles", headers.getStyles(),
					ex.getMessage(), "[ietf, x-ratelimit]");
		}
	}

	static EndpointClassifier classifier(RateLimitProperties properties, Environment environment,
			Supplier<List<EndpointRule>> annotated) {
		List<EndpointRule> groups = new ArrayList<>();
		properties.getGroups()
			.forEach((name, group) -> groups.addAll(EndpointRules.group("ratelimit.groups." + name, name,
					group.getPaths(), group.getMethods().stream().map(Enum::name).toList(), group.getCost())));
		Map<String, Long> costs = new LinkedHashMap<>();
		properties.getGroups().forEach((name, group) -> costs.put(name, group.getCost()));
		List<String> excluded = properties.getExcludePaths();
		List<String> exclusions = new ArrayList<>((excluded != null) ? excluded : actuatorPaths(environment));
		// the status endpoint answers before the limiter and counts against nothing
		exclusions.addAll(StatusMapper.excludedPaths(properties.getStatus()));
		return new EndpointClassifier(EndpointRules.exclusions(exclusions), groups, costs, annotated);
	}

	/**
	 * Checks, once the handlers and routes are known, that every group they name is
	 * configured (a typo must not quietly fall into {@code default}) and that every group
	 * without paths is named by one.
	 */
	static void checkGroups(RateLimitProperties properties, EndpointClassifier classifier, PolicyTable policies) {
		Map<String, String> named = classifier.annotatedGroups();
		named.forEach((group, pattern) -> {
			if (!policies.groups().contains(group)) {
				throw new InvalidRateLimitConfigurationException("ratelimit.groups", group,
						"@RateLimited(group = \"" + group + "\") or a route attribute on " + pattern
								+ " names a group that is not configured; " + "configured groups are "
								+ policies.groups() + ". Declare it (paths are optional for a "
								+ "group that handlers name)",
						"ratelimit.groups." + group + ".cost=1");
			}
		});
		for (EndpointRule rule : classifier.annotatedRules()) {
			checkAnnotatedCostFits(classifier, rule);
		}
		properties.getGroups().forEach((name, group) -> {
			if (group.getPaths().isEmpty() && !named.containsKey(name)) {
				throw new InvalidRateLimitConfigurationException("ratelimit.groups." + name + ".paths", "[]",
						"a group needs path patterns, or a @RateLimited handler or route attribute that names it",
						"/v1/" + name + "/**");
			}
		});
	}

	/**
	 * A handler whose cost (its own, or its group's) exceeds what its own limit can ever
	 * hold would answer every request 403: a mistake to report at startup. (A tier's
	 * limit below the cost only keeps that tier out, which an override may change.)
	 */
	private static void checkAnnotatedCostFits(EndpointClassifier classifier, EndpointRule rule) {
		// a cost of the handler's own was checked as its annotation was read
		if (rule.exempt() || rule.cost() > 0 || rule.group() == null) {
			return;
		}
		long cost = classifier.groupCost(rule.group());
		String where = "@RateLimited on " + rule.pattern().getPatternString();
		InlineLimit inline = rule.inline();
		if (inline != null && !inline.limit().blocked() && cost > inline.limit().maxCost()) {
			throw new InvalidRateLimitConfigurationException(where, cost,
					"a request costs " + cost + " tokens (its group's cost), more than its own limit ("
							+ inline.limit().spec() + ") can ever hold; " + "set a cost that fits or raise the limit",
					"@RateLimited(cost = " + inline.limit().maxCost() + ")");
		}
	}

	/**
	 * Everything under the Actuator's base path, where health probes live; nothing when
	 * it is the root.
	 */
	private static List<String> actuatorPaths(Environment environment) {
		String basePath = environment.getProperty("management.endpoints.web.base-path", "/actuator").strip();
		while (basePath.endsWith("/")) {
			basePath = basePath.substring(0, basePath.length() - 1);
		}
		if (basePath.isEmpty()) {
			// the Actuator at the root: its endpoints cannot be told from the
			// application's by path
			return List.of();
		}
		return List.of((basePath.startsWith("/") ? basePath : "/" + basePath) + "/**");
	}

}
