package io.github.ratelimit.autoconfigure;

import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

import io.github.ratelimit.http.HeaderStyle;
import io.github.ratelimit.http.RateLimitHeaders;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code ratelimit.headers.styles} is bound by Boot's binder as users write the styles
 * (lower case with dashes, or the constants' names), and an unknown style fails there,
 * naming the property.
 */
class RateLimitHeaderStylesAutoConfigurationTests {

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RateLimitAutoConfiguration.class))
		.withPropertyValues("ratelimit.tiers.anonymous.ip.default=10/1m");

	@Test
	void theDefaultStylesAreTheNewestDraftAndTheXRateLimitHeaders() {
		this.runner.run((context) -> assertThat(context.getBean(RateLimitHeaders.class).styles())
			.containsExactly(HeaderStyle.IETF, HeaderStyle.X_RATELIMIT));
	}

	@Test
	void stylesAreReadAsUsersWriteThem() {
		this.runner.withPropertyValues("ratelimit.headers.styles=x-ratelimit, SPLIT").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context.getBean(RateLimitHeaders.class).styles()).containsExactly(HeaderStyle.X_RATELIMIT,
					HeaderStyle.SPLIT);
		});
		this.runner.withPropertyValues("ratelimit.headers.styles=draft7")
			.run((context) -> assertThat(context.getBean(RateLimitHeaders.class).styles())
				.containsExactly(HeaderStyle.DRAFT7));
		this.runner.withPropertyValues("ratelimit.headers.styles=none")
			.run((context) -> assertThat(context.getBean(RateLimitHeaders.class).styles())
				.containsExactly(HeaderStyle.NONE));
	}

	@Test
	void anUnknownStyleFailsInTheBinderNamingTheProperty() {
		this.runner.withPropertyValues("ratelimit.headers.styles=ietf,github").run((context) -> {
			assertThat(context).hasFailed();
			BindException bind = findCause(context.getStartupFailure(), BindException.class);
			assertThat(bind).isNotNull();
			// Boot's analyzer reports it with the property's origin and lists the enum's
			// values
			assertThat(bind.getProperty()).isNotNull();
			assertThat(bind.getProperty().getName().toString()).startsWith("ratelimit.headers.styles");
			assertThat(bind.getProperty().getValue()).hasToString("ietf,github");
		});
	}

	private static <T extends Throwable> T findCause(Throwable failure, Class<T> type) {
		Throwable candidate = failure;
		while (candidate != null) {
			if (type.isInstance(candidate)) {
				return type.cast(candidate);
			}
			candidate = candidate.getCause();
		}
		return null;
	}

}
