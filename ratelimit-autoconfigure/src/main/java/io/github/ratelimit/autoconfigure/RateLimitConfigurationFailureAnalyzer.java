package io.github.ratelimit.autoconfigure;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

import io.github.ratelimit.policy.InvalidRateLimitConfigurationException;

/**
 * Turns an invalid rate-limit property into a startup report that names the property,
 * says what is wrong, and shows a valid value.
 */
class RateLimitConfigurationFailureAnalyzer extends AbstractFailureAnalyzer<InvalidRateLimitConfigurationException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, InvalidRateLimitConfigurationException cause) {
		String description = "Invalid value '" + cause.getValue() + "' for configuration property '"
				+ cause.getProperty() + "': " + cause.getReason() + ".";
		String action = "Update '" + cause.getProperty() + "' in your configuration. A valid value looks like: "
				+ cause.getExample();
		return new FailureAnalysis(description, action, cause);
	}

}
