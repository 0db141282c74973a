package io.github.ratelimit.autoconfigure;

import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.assertj.AssertableWebApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a user sees when a property stops the start: the analysis names the property and
 * its value, and shows a valid one.
 */
final class StartFailures {

	private StartFailures() {
	}

	static FailureAnalysis assertStartFailure(AssertableWebApplicationContext context, String property, String value,
			String example) {
		assertThat(context).hasFailed();
		FailureAnalysis analysis = new RateLimitConfigurationFailureAnalyzer().analyze(context.getStartupFailure());
		assertThat(analysis).as("%s", context.getStartupFailure()).isNotNull();
		assertThat(analysis.getDescription()).contains(property).contains(value);
		assertThat(analysis.getAction()).contains(example);
		return analysis;
	}

}
