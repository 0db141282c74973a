package io.github.ratelimit.http;

import org.junit.jupiter.api.Test;

import io.github.ratelimit.core.Outcome;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class RateLimitStatusTests {

	@Test
	void rejectionIsTooManyRequests() {
		assertThat(RateLimitStatus.of(Outcome.REJECTED).code()).isEqualTo(429);
		assertThat(RateLimitStatus.of(Outcome.REJECTED).reasonPhrase()).isEqualTo("Too Many Requests");
	}

	@Test
	void blockedTierIsForbidden() {
		assertThat(RateLimitStatus.of(Outcome.BLOCKED).code()).isEqualTo(403);
	}

	@Test
	void unavailableStoreIsServiceUnavailable() {
		assertThat(RateLimitStatus.of(Outcome.UNAVAILABLE).code()).isEqualTo(503);
	}

	@Test
	void admittingOutcomesHaveNoStatus() {
		for (Outcome outcome : Outcome.values()) {
			if (outcome.admits()) {
				assertThatIllegalArgumentException().isThrownBy(() -> RateLimitStatus.of(outcome));
			}
		}
	}

}
