package io.github.ratelimit.web;

import java.util.List;

import org.junit.jupiter.api.Test;

import io.github.ratelimit.http.HeaderStyle;
import io.github.ratelimit.http.RateLimitHeaders;

import static org.assertj.core.api.Assertions.assertThat;

class ExposedHeadersTests {

	private final ExposedHeaders exposed = ExposedHeaders.of(RateLimitHeaders.of(HeaderStyle.IETF));

	@Test
	void exposesTheHeadersOfTheConfiguredStylesRetryAfterAndTheRequestId() {
		assertThat(this.exposed.names()).containsExactly("RateLimit", "RateLimit-Policy", "RateLimit-Warning",
				"Retry-After", "X-Request-Id");
		assertThat(ExposedHeaders.of(RateLimitHeaders.of(HeaderStyle.NONE)).names()).containsExactly("Retry-After",
				"X-Request-Id");
	}

	@Test
	void addsOnlyWhatTheApplicationDoesNotExposeAlready() {
		assertThat(this.exposed.missingFrom(null))
			.isEqualTo("RateLimit, RateLimit-Policy, RateLimit-Warning, Retry-After, X-Request-Id");
		assertThat(this.exposed.missingFrom(List.of("X-App, retry-after", "ratelimit")))
			.isEqualTo("RateLimit-Policy, RateLimit-Warning, X-Request-Id");
		assertThat(this.exposed
			.missingFrom(List.of("RateLimit,RateLimit-Policy , RateLimit-Warning, Retry-After, X-Request-Id")))
			.isNull();
	}

}
