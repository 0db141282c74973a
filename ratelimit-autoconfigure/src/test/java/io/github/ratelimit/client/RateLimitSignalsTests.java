package io.github.ratelimit.client;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import org.junit.jupiter.api.Test;

import io.github.ratelimit.http.HeaderStyle;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The client reads what our own server writes, family by family, and the common foreign
 * forms; what it cannot read it ignores.
 */
class RateLimitSignalsTests {

	private static final Instant NOW = Instant.parse("2026-01-17T12:34:33Z");

	private static final Clock CLOCK = Clock.fixed(NOW, ZoneOffset.UTC);

	@Test
	void readsTheIetfFieldsOurServerWrites() {
		RateLimitSignals signals = RateLimitSignals.read(429,
				ServerResponses.lookup(ServerResponses.orgRefusal(23), HeaderStyle.IETF), CLOCK);

		assertThat(signals.policy()).isEqualTo("premium-org-export");
		assertThat(signals.limit()).isEqualTo(100);
		assertThat(signals.remaining()).isZero();
		assertThat(signals.reset()).isEqualTo(Duration.ofSeconds(23));
		assertThat(signals.retryAfter()).isEqualTo(Duration.ofSeconds(23));
		assertThat(signals.exhausted()).isTrue();
	}

	@Test
	void readsTheDraft7FieldOurServerWrites() {
		RateLimitSignals signals = RateLimitSignals.read(200,
				ServerResponses.lookup(ServerResponses.userAdmitted(0, 17), HeaderStyle.DRAFT7), CLOCK);

		assertThat(signals.limit()).isEqualTo(100);
		assertThat(signals.remaining()).isZero();
		assertThat(signals.reset()).isEqualTo(Duration.ofSeconds(17));
		assertThat(signals.retryAfter()).isNull();
		assertThat(signals.waitHint()).as("the reset of the exhausted policy").isEqualTo(Duration.ofSeconds(17));
	}

	@Test
	void readsTheSplitFieldsOurServerWrites() {
		RateLimitSignals signals = RateLimitSignals.read(200,
				ServerResponses.lookup(ServerResponses.userAdmitted(7, 40), HeaderStyle.SPLIT), CLOCK);

		assertThat(signals.limit()).isEqualTo(100);
		assertThat(signals.remaining()).isEqualTo(7);
		assertThat(signals.reset()).isEqualTo(Duration.ofSeconds(40));
		assertThat(signals.exhausted()).isFalse();
		assertThat(signals.waitHint()).as("a policy with quota left asks for no wait").isNull();
	}

	@Test
	void readsTheXRateLimitFieldsOurServerWrites() {
		RateLimitSignals signals = RateLimitSignals.read(429,
				ServerResponses.lookup(ServerResponses.orgRefusal(8), HeaderStyle.X_RATELIMIT), CLOCK);

		assertThat(signals.limit()).isEqualTo(100);
		assertThat(signals.remaining()).isZero();
		assertThat(signals.reset()).isEqualTo(Duration.ofSeconds(8));
		assertThat(signals.retryAfter()).isEqualTo(Duration.ofSeconds(8));
		assertThat(signals.policy()).isNull();
	}

	@Test
	void prefersTheIetfFieldWhenOurServerSendsTwoFamilies() {
		RateLimitSignals signals = RateLimitSignals.read(200,
				ServerResponses.lookup(ServerResponses.userAdmitted(3, 12), HeaderStyle.IETF, HeaderStyle.X_RATELIMIT),
				CLOCK);

		assertThat(signals.policy()).isEqualTo("premium-user-default");
		assertThat(signals.remaining()).isEqualTo(3);
		assertThat(signals.reset()).isEqualTo(Duration.ofSeconds(12));
	}

	@Test
	void readsAnEpochResetSuchAsGitHubs() {
		long reset = NOW.getEpochSecond() + 1800;
		RateLimitSignals signals = RateLimitSignals.read(403,
				ServerResponses.headers("X-RateLimit-Limit", "5000", "X-RateLimit-Remaining", "0", "X-RateLimit-Reset",
						Long.toString(reset), "X-RateLimit-Resource", "core"),
				CLOCK);

		assertThat(signals.reset()).isEqualTo(Duration.ofMinutes(30));
		assertThat(signals.limit()).isEqualTo(5000);
		assertThat(signals.policy()).isEqualTo("core");
		assertThat(signals.waitHint()).isEqualTo(Duration.ofMinutes(30));
	}

	@Test
	void anEpochResetInThePastIsNoWait() {
		RateLimitSignals signals = RateLimitSignals.read(429, ServerResponses.headers("X-RateLimit-Remaining", "0",
				"X-RateLimit-Reset", Long.toString(NOW.getEpochSecond() - 5)), CLOCK);

		assertThat(signals.reset()).isZero();
	}

	@Test
	void readsRetryAfterAsAnHttpDate() {
		RateLimitSignals signals = RateLimitSignals.read(503,
				ServerResponses.headers("Retry-After", "Sat, 17 Jan 2026 12:35:15 GMT"), CLOCK);

		assertThat(signals.retryAfter()).isEqualTo(Duration.ofSeconds(42));
		assertThat(signals.waitHint()).isEqualTo(Duration.ofSeconds(42));
	}

	@Test
	void aRetryAfterDateInThePastIsNoWait() {
		RateLimitSignals signals = RateLimitSignals.read(429,
				ServerResponses.headers("Retry-After", "Sat, 17 Jan 2026 12:00:00 GMT"), CLOCK);

		assertThat(signals.retryAfter()).isZero();
	}

	@Test
	void readsRetryAfterAsSeconds() {
		assertThat(RateLimitSignals.read(429, ServerResponses.headers("Retry-After", " 120 "), CLOCK).retryAfter())
			.isEqualTo(Duration.ofMinutes(2));
		assertThat(RateLimitSignals.read(429, ServerResponses.headers("Retry-After", "1.5"), CLOCK).retryAfter())
			.isEqualTo(Duration.ofMillis(1500));
	}

	@Test
	void theExhaustedIetfPolicyThatFreesLastCounts() {
		RateLimitSignals signals = RateLimitSignals.read(429,
				ServerResponses.headers("RateLimit", "\"burst\";r=4;t=1, \"daily\";r=0;t=3600, \"hourly\";r=0;t=60",
						"RateLimit-Policy", "\"burst\";q=10;w=1, \"hourly\";q=100;w=3600, \"daily\";q=1000;w=86400"),
				CLOCK);

		assertThat(signals.policy()).isEqualTo("daily");
		assertThat(signals.limit()).isEqualTo(1000);
		assertThat(signals.remaining()).isZero();
		assertThat(signals.reset()).isEqualTo(Duration.ofHours(1));
	}

	@Test
	void readsIetfMembersAcrossFieldLinesAndEscapedNames() {
		RateLimitSignals signals = RateLimitSignals.read(200,
				ServerResponses.headers("RateLimit", "\"a,b;\\\"c\";r=9;t=5", "RateLimit", "\"other\";t=2;r=1"), CLOCK);

		assertThat(signals.policy()).isEqualTo("other");
		assertThat(signals.remaining()).isEqualTo(1);
		assertThat(signals.reset()).isEqualTo(Duration.ofSeconds(2));
	}

	@Test
	void ignoresGarbageWithoutThrowing() {
		List<Map<String, String>> garbage = List.of(Map.of("Retry-After", "soon"),
				Map.of("Retry-After", "-5", "X-RateLimit-Remaining", "-1"),
				Map.of("Retry-After", "Sat, 32 Jan 2026 99:00:00 GMT"), Map.of("Retry-After", "9".repeat(40)),
				Map.of("RateLimit", "\"unclosed;r=0;t=5"), Map.of("RateLimit", ";;;,,,=,\"\\"),
				Map.of("RateLimit", "\"p\";r=zero;t=five"), Map.of("RateLimit", "limit=, remaining=x, reset=1e3"),
				Map.of("RateLimit", "\"p\";r=0;t=" + "1".repeat(HeaderValues.MAX_LENGTH)),
				Map.of("RateLimit-Remaining", "0x10", "RateLimit-Reset", "1.2.3"),
				Map.of("X-RateLimit-Remaining", "١٢", "X-RateLimit-Reset", "NaN"),
				Map.of("X-RateLimit-Limit", "100", "X-RateLimit-Remaining", "", "X-RateLimit-Reset", "."));

		for (Map<String, String> fields : garbage) {
			HeaderLookup headers = HeaderLookup.of(fields.entrySet()
				.stream()
				.collect(Collectors.toMap(Map.Entry::getKey, (entry) -> List.of(entry.getValue()))));

			RateLimitSignals signals = RateLimitSignals.read(429, headers, CLOCK);

			assertThat(signals).as("%s", fields).isEqualTo(new RateLimitSignals(429, null, null, null, null, null));
		}
	}

	@Test
	void aFailingLookupIsNoSignal() {
		HeaderLookup failing = (name) -> {
			throw new IllegalStateException("closed");
		};

		assertThat(RateLimitSignals.read(429, failing, CLOCK))
			.isEqualTo(new RateLimitSignals(429, null, null, null, null, null));
	}

	@Test
	void toleratesALookupThatAnswersNullForAnAbsentHeader() {
		HeaderLookup headers = ServerResponses.lookup(ServerResponses.orgRefusal(6), HeaderStyle.X_RATELIMIT);
		HeaderLookup nullForAbsent = (name) -> headers.values(name).isEmpty() ? null : headers.values(name);

		RateLimitSignals signals = RateLimitSignals.read(429, nullForAbsent, CLOCK);

		assertThat(signals.remaining()).isZero();
		assertThat(signals.retryAfter()).isEqualTo(Duration.ofSeconds(6));
	}

	@Test
	void namesAreMatchedRegardlessOfCase() {
		RateLimitSignals signals = RateLimitSignals.read(429,
				ServerResponses.headers("retry-after", "3", "x-ratelimit-remaining", "0", "X-RATELIMIT-RESET", "3"),
				CLOCK);

		assertThat(signals.retryAfter()).isEqualTo(Duration.ofSeconds(3));
		assertThat(signals.remaining()).isZero();
	}

}
