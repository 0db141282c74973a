package io.github.ratelimit.autoconfigure;

import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.assertj.AssertableWebApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a user sees when a property stops the start: the analysis names the property and
 * its value, and shows a valid one; the binder's also says where the value was set.
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

	/**
	 * The property stopped the start in Boot's binder (a converter refused it): the
	 * analysis also says where the value was set.
	 */
	static FailureAnalysis assertBindFailure(AssertableWebApplicationContext context, String property, String value,
			String example) {
		assertThat(context).hasFailed();
		FailureAnalysis analysis = new RateLimitBindFailureAnalyzer().analyze(context.getStartupFailure());
		assertThat(analysis).as("%s", context.getStartupFailure()).isNotNull();
		assertThat(analysis.getDescription()).contains("'" + property + "'")
			.contains(value)
			.contains("(set in \"" + property + "\" from property source");
		assertThat(analysis.getAction()).contains(example);
		return analysis;
	}

}
