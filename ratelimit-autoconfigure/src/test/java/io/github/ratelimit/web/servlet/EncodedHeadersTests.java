package io.github.ratelimit.web.servlet;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import io.github.ratelimit.http.RateLimitHeaders;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Names and policy values are encoded once and shared; values that change per response,
 * and anything but visible ASCII, are not kept.
 */
class EncodedHeadersTests {

	private final EncodedHeaders encoded = new EncodedHeaders(4);

	@Test
	void aPolicyValueIsEncodedOnceAndShared() {
		String policy = "\"encoded-once\";q=60;w=60";
		byte[] first = this.encoded.value(RateLimitHeaders.RATE_LIMIT_POLICY, policy);
		byte[] again = this.encoded.value(RateLimitHeaders.RATE_LIMIT_POLICY, new String(policy));
		assertThat(first).isEqualTo(policy.getBytes(StandardCharsets.US_ASCII));
		assertThat(again).isSameAs(first);
	}

	@Test
	void aValueThatChangesPerResponseIsEncodedEachTime() {
		byte[] first = this.encoded.value(RateLimitHeaders.X_RATE_LIMIT_REMAINING, "59");
		byte[] again = this.encoded.value(RateLimitHeaders.X_RATE_LIMIT_REMAINING, "59");
		assertThat(again).isEqualTo(first).isNotSameAs(first);
	}

	@Test
	void ourNamesAreEncodedOnceAndOthersEachTime() {
		assertThat(EncodedHeaders.name(RateLimitHeaders.RATE_LIMIT)).isSameAs(EncodedHeaders.name("RateLimit"))
			.isEqualTo("RateLimit".getBytes(StandardCharsets.US_ASCII));
		assertThat(EncodedHeaders.name("X-Other")).isEqualTo("X-Other".getBytes(StandardCharsets.US_ASCII))
			.isNotSameAs(EncodedHeaders.name("X-Other"));
	}

	@Test
	void anythingButVisibleAsciiIsNotEncoded() {
		assertThat(this.encoded.value(RateLimitHeaders.RATE_LIMIT_POLICY, "\"caf\u00e9\";q=1;w=1")).isNull();
		assertThat(this.encoded.value(RateLimitHeaders.RATE_LIMIT, "a\r\nb")).isNull();
		assertThat(EncodedHeaders.name("X-\u00e9")).isNull();
	}

	@Test
	void theKeptValuesAreBounded() {
		for (int i = 0; i < 4; i++) {
			this.encoded.value(RateLimitHeaders.X_RATE_LIMIT_LIMIT, "bounded-" + i);
		}
		String late = "bounded-late";
		byte[] first = this.encoded.value(RateLimitHeaders.X_RATE_LIMIT_LIMIT, late);
		assertThat(this.encoded.value(RateLimitHeaders.X_RATE_LIMIT_LIMIT, late)).isEqualTo(first).isNotSameAs(first);
	}

}
