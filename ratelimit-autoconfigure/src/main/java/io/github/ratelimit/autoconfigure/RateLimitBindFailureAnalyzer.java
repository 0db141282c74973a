package io.github.ratelimit.autoconfigure;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;

/**
 * Explains a limit written at the wrong depth under {@code ratelimit.tiers} (for example
 * {@code ratelimit.tiers.gold.default=5/1m}, the dimension left out), which the binder can only report as
 * a missing converter. Other binding failures are left to Spring Boot's own analyzer.
 */
@Order(Ordered.HIGHEST_PRECEDENCE)
class RateLimitBindFailureAnalyzer extends AbstractFailureAnalyzer<BindException> {

	private static final String TIERS = "ratelimit.tiers.";

	@Override
	protected @Nullable FailureAnalysis analyze(Throwable rootFailure, BindException cause) {
		ConfigurationProperty property = cause.getProperty();
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

}
