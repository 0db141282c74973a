package io.github.ratelimit.autoconfigure;

import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;
import org.springframework.core.ResolvableType;
import org.springframework.core.annotation.Order;

import io.github.ratelimit.control.AccessRule;
import io.github.ratelimit.control.Subject;
import io.github.ratelimit.identity.CidrRange;
import io.github.ratelimit.load.Priority;
import io.github.ratelimit.policy.CountedResponse;
import io.github.ratelimit.policy.CountedResponses;
import io.github.ratelimit.policy.Limit;
import io.github.ratelimit.policy.LimitParser;
import io.github.ratelimit.policy.WarnAt;

/**
 * Reports a value our converters could not bind (a limit string, a soft limit, a CIDR
 * range, a counted response, an access rule) the way other invalid properties are
 * reported (the property, its origin, the reason and a valid value), and explains a limit
 * written at the wrong depth under {@code ratelimit.tiers} (for example
 * {@code ratelimit.tiers.gold.default=5/1m}, the dimension left out), which the binder
 * can only report as an unbound property or a missing converter. Other binding failures
 * are left to Spring Boot's own analyzer.
 */
@Order(Ordered.HIGHEST_PRECEDENCE)
class RateLimitBindFailureAnalyzer extends AbstractFailureAnalyzer<BindException> {

	private static final String PREFIX = "ratelimit.";

	private static final String TIERS = "ratelimit.tiers.";

	/** What a tier holds besides the four dimensions' maps. */
	private static final Set<String> TIER_FIELDS = Set.of("user", "org", "token", "ip", "quota", "mode", "warn-at");

	private static final String LOGIN_PROTECTION = "ratelimit.login-protection.";

	/** A valid value of each type our converters bind. */
	private static final Map<Class<?>, String> EXAMPLES = Map.of(Limit.class, LimitParser.EXAMPLE, WarnAt.class,
			WarnAt.EXAMPLE, CidrRange.class, CidrRangeConverter.EXAMPLE, CountedResponse.class,
			CountedResponses.EXAMPLE, OptionalLimit.class, LimitParser.EXAMPLE, KeySha256.class, KeySha256.EXAMPLE,
			AccessRule.class, AllowRuleConverter.EXAMPLE, Subject.class, SubjectConverter.EXAMPLE, Priority.class,
			PriorityConverter.EXAMPLE);

	/** Login protection's budgets and counts have examples of their own. */
	private static final Map<String, String> LOGIN_EXAMPLES = Map.of("per-address", "10/1m", "per-account", "20/15m",
			"count", "401");

	@Override
	protected @Nullable FailureAnalysis analyze(Throwable rootFailure, BindException cause) {
		ConfigurationProperty property = cause.getProperty();
		if (property == null && cause.getCause() instanceof UnboundConfigurationPropertiesException unbound) {
			// a key under a tier that is no dimension: the limit lost its dimension level
			property = unbound.getUnboundProperties()
				.stream()
				.filter((candidate) -> misplacedLimit(candidate.getName().toString()))
				.findFirst()
				.orElse(null);
		}
		if (property != null && property.getName().toString().startsWith(PREFIX)) {
			IllegalArgumentException invalid = findCause(cause, IllegalArgumentException.class);
			ResolvableType target = cause.getTarget().getType();
			// a list bound from one comma-separated value fails as the list: report its
			// element type
			Class<?> type = (target.asCollection() != ResolvableType.NONE) ? target.asCollection().resolveGeneric()
					: target.resolve();
			String example = (invalid != null && type != null) ? example(property.getName().toString(), type) : null;
			if (example != null) {
				if (type == Limit.class || type == OptionalLimit.class) {
					example = example + ". " + LimitConverter.KINDS;
				}
				return invalidValue(property, invalid, cause, example);
			}
		}
		if (property == null || !property.getName().toString().startsWith(TIERS)) {
			return null;
		}
		String name = property.getName().toString();
		String[] parts = name.substring(TIERS.length()).split("\\.");
		String tier = parts[0];
		String group = parts[parts.length - 1];
		String description = "Property '" + name + "' (value '" + property.getValue() + "') is not where a limit goes: "
				+ "under ratelimit.tiers, a tier maps a dimension (user, org, token or ip) to endpoint groups and "
				+ "their limits, ratelimit.tiers.<tier>.<dimension>.<group>=<limit>.";
		String action = "Name the dimension, for example: ratelimit.tiers." + tier + ".user." + group + "="
				+ property.getValue();
		return new FailureAnalysis(description, action, cause);
	}

	/**
	 * A valid value of a type our converters bind, for the property; {@code null} for a
	 * type Boot reports by itself.
	 */
	private static @Nullable String example(String property, Class<?> type) {
		String example = EXAMPLES.get(type);
		if (example != null && property.startsWith(LOGIN_PROTECTION)) {
			// count[0]: the example of the list
			String key = property.substring(LOGIN_PROTECTION.length()).replaceFirst("\\[\\d+]$", "");
			return LOGIN_EXAMPLES.getOrDefault(key, example);
		}
		return example;
	}

	// the same report as the other invalid properties, with where the value was set
	private static FailureAnalysis invalidValue(ConfigurationProperty property, IllegalArgumentException invalid,
			BindException cause, String example) {
		String name = property.getName().toString();
		String origin = (property.getOrigin() != null) ? " (set in " + property.getOrigin() + ")" : "";
		String reason = invalid.getMessage().endsWith(".") ? invalid.getMessage() : invalid.getMessage() + ".";
		// never echo a key's hash that failed: it may be the raw key, pasted in the wrong
		// place
		Object value = name.endsWith(".key-sha256") ? "(hidden)" : property.getValue();
		String description = "Invalid value '" + value + "' for configuration property '" + name + "'" + origin + ": "
				+ reason;
		String action = "Update '" + name + "' in your configuration. A valid value looks like: " + example;
		return new FailureAnalysis(description, action, cause);
	}

	private static boolean misplacedLimit(String name) {
		if (!name.startsWith(TIERS)) {
			return false;
		}
		String[] parts = name.substring(TIERS.length()).split("\\.");
		return parts.length == 2 && !TIER_FIELDS.contains(parts[1]);
	}

}
