package io.github.ratelimit.http;

import org.junit.jupiter.api.Test;

import io.github.ratelimit.load.Priority;
import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.Policy;

import static io.github.ratelimit.http.TestDecisions.ALICE;
import static io.github.ratelimit.http.TestDecisions.orgExportRejected;
import static org.assertj.core.api.Assertions.assertThat;

class RateLimitStatusTests {

	@Test
	void rejectionIsTooManyRequests() {
		assertThat(RateLimitStatus.of(orgExportRejected()).code()).isEqualTo(429);
		assertThat(RateLimitStatus.of(orgExportRejected()).reasonPhrase()).isEqualTo("Too Many Requests");
	}

	@Test
	void blockedDeniedAndBannedCallersAreForbidden() {
		Policy blocked = TestDecisions.policy("premium", Dimension.USER, "admin", "0");
		assertThat(RateLimitStatus.of(TestDecisions.blocked(ALICE, "admin", blocked)).code()).isEqualTo(403);
		assertThat(RateLimitStatus.of(TestDecisions.denied(ALICE, "default")).code()).isEqualTo(403);
		assertThat(RateLimitStatus.of(TestDecisions.banned(ALICE, "default", 60)).code()).isEqualTo(403);
	}

	@Test
	void unavailableStoreIsServiceUnavailable() {
		assertThat(RateLimitStatus.of(TestDecisions.unavailable(ALICE, "default")).code()).isEqualTo(503);
		assertThat(RateLimitStatus.of(TestDecisions.shed(ALICE, "default", Priority.LOW, 5)).code()).isEqualTo(503);
	}

}
