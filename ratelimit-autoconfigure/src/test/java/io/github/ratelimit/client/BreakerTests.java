package io.github.ratelimit.client;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Random;

import org.junit.jupiter.api.Test;

import io.github.ratelimit.test.ManualTimeMeter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatNoException;

/**
 * Repeated 429s from one host open a breaker: calls to it fail at once, without sending,
 * until it may have recovered; then one request at a time tests the host.
 */
class BreakerTests {

	private static final URI ORDERS = URI.create("https://api.example.com/orders");

	private final ManualTimeMeter clock = new ManualTimeMeter(Instant.parse("2026-01-17T12:34:33Z"));

	private final RecordedEvents events = new RecordedEvents();

	// pacing off, so that only the breaker holds requests back
	private final RateLimitClient client = new RateLimitClient(
			ClientRetrySettings.DEFAULTS.withPacing(false).withMaxAttempts(1), this.clock, new Random(5), this.events);

	@Test
	void opensAfterTheThresholdOfConsecutive429sAndRefusesWithoutSending() {
		refuse(5, null);
		this.clock.advance(Duration.ofSeconds(10));

		ClientCall call = this.client.start("GET", ORDERS, false);
		assertThatExceptionOfType(RateLimitedException.class).isThrownBy(call::beforeSend).satisfies((exception) -> {
			assertThat(exception.reason()).isEqualTo(GiveUpReason.BREAKER_OPEN);
			assertThat(exception.status()).isEqualTo(429);
			assertThat(exception.retryAfter()).as("the time left").isEqualTo(Duration.ofSeconds(20));
			assertThat(exception.safeToRetry()).isTrue();
			assertThat(exception.attempts()).isZero();
			assertThat(exception.getMessage()).isEqualTo("Rate limit exceeded at api.example.com. Retry after 20s or "
					+ "reduce concurrency. Not sent: api.example.com refused 5 requests in a row.");
		});
		assertThat(call.attempts()).isZero();
		assertThat(this.events.lines).endsWith("gave up api.example.com 429 breaker-open");
	}

	@Test
	void fewerRefusalsLeaveItClosed() {
		refuse(4, null);

		assertThat(this.client.start("GET", ORDERS, false).beforeSend()).isZero();
	}

	@Test
	void refusalsThatAreNotConsecutiveLeaveItClosed() {
		refuse(4, null);
		answer(200);
		refuse(4, null);

		assertThat(this.client.start("GET", ORDERS, false).beforeSend()).isZero();
	}

	@Test
	void staysOpenForTheServersWaitWhenItIsLonger() {
		refuse(5, "300");

		this.clock.advance(Duration.ofSeconds(299));
		ClientCall call = this.client.start("GET", ORDERS, false);
		assertThatExceptionOfType(RateLimitedException.class).isThrownBy(call::beforeSend)
			.satisfies((exception) -> assertThat(exception.retryAfter()).isEqualTo(Duration.ofSeconds(1)));
		this.clock.advance(Duration.ofSeconds(1));
		assertThatNoException().isThrownBy(() -> this.client.start("GET", ORDERS, false).beforeSend());
	}

	@Test
	void closesByTimeButReopensOnTheNextRefusal() {
		refuse(5, null);
		this.clock.advance(Duration.ofSeconds(30));

		refuse(1, null);

		assertThatExceptionOfType(RateLimitedException.class)
			.isThrownBy(() -> this.client.start("GET", ORDERS, false).beforeSend());
	}

	@Test
	void onceItsTimeIsUpOneRequestTestsTheHostAndTheOthersWaitForItsAnswer() {
		refuse(5, null);
		this.clock.advance(Duration.ofSeconds(30));

		ClientCall test = this.client.start("GET", ORDERS, false);
		assertThat(test.beforeSend()).isZero();
		for (int i = 0; i < 3; i++) {
			ClientCall held = this.client.start("GET", ORDERS, false);
			assertThatExceptionOfType(RateLimitedException.class).isThrownBy(held::beforeSend)
				.satisfies((exception) -> {
					assertThat(exception.reason()).isEqualTo(GiveUpReason.BREAKER_OPEN);
					assertThat(exception.retryAfter()).as("not known while the test is under way").isNull();
					assertThat(exception.getMessage()).isEqualTo("Rate limit exceeded at api.example.com. Retry later "
							+ "or reduce concurrency. Not sent: api.example.com refused 5 requests in a row; "
							+ "another request is testing whether it recovered.");
				});
			assertThat(held.attempts()).isZero();
		}
		test.afterResponse(200, HeaderLookup.none(), () -> null);

		for (int i = 0; i < 3; i++) {
			assertThat(this.client.start("GET", ORDERS, false).beforeSend()).as("closed").isZero();
		}
	}

	@Test
	void aRefusedTestOpensItForItsWholeTimeAgain() {
		refuse(5, null);
		this.clock.advance(Duration.ofSeconds(30));

		refuse(1, null);

		this.clock.advance(Duration.ofSeconds(29));
		assertThatExceptionOfType(RateLimitedException.class)
			.isThrownBy(() -> this.client.start("GET", ORDERS, false).beforeSend())
			.satisfies((exception) -> assertThat(exception.retryAfter()).isEqualTo(Duration.ofSeconds(1)));
	}

	@Test
	void aTestThatGotNoResponseLetsTheNextRequestTest() {
		refuse(5, null);
		this.clock.advance(Duration.ofSeconds(30));
		ClientCall test = this.client.start("GET", ORDERS, false);
		test.beforeSend();

		test.sendFailed();

		assertTheNextRequestTestsAndTheRestWait();
	}

	@Test
	void aTestAnswered503LetsTheNextRequestTest() {
		refuse(5, null);
		this.clock.advance(Duration.ofSeconds(30));

		answer(503);

		assertTheNextRequestTestsAndTheRestWait();
	}

	@Test
	void aTestHeldBackByPacingLetsTheNextRequestTest() {
		RateLimitClient client = new RateLimitClient(ClientRetrySettings.DEFAULTS.withMaxAttempts(1), this.clock,
				new Random(5), this.events);
		for (int i = 0; i < 5; i++) {
			ClientCall call = client.start("GET", ORDERS, false);
			call.beforeSend();
			call.afterResponse(429, HeaderLookup.none(), () -> null);
		}
		this.clock.advance(Duration.ofSeconds(30));
		// the test is answered 503 with every request of the host held for 10 minutes
		ClientCall test = client.start("GET", ORDERS, false);
		test.beforeSend();
		test.afterResponse(503, ServerResponses.headers("RateLimit", "\"orders\";r=0;t=600"), () -> null);

		for (int i = 0; i < 2; i++) {
			ClientCall held = client.start("GET", ORDERS, false);
			assertThatExceptionOfType(RateLimitedException.class).isThrownBy(held::beforeSend)
				.satisfies((exception) -> assertThat(exception.reason()).as("not sent, and no test under way")
					.isEqualTo(GiveUpReason.WAIT_TOO_LONG));
		}
	}

	@Test
	void aTestNeverAnsweredHoldsTheOthersBackForTheOpenTimeAtMost() {
		refuse(5, null);
		this.clock.advance(Duration.ofSeconds(30));
		this.client.start("GET", ORDERS, false).beforeSend();

		this.clock.advance(Duration.ofSeconds(29));
		assertThatExceptionOfType(RateLimitedException.class)
			.isThrownBy(() -> this.client.start("GET", ORDERS, false).beforeSend());
		this.clock.advance(Duration.ofSeconds(1));
		assertThat(this.client.start("GET", ORDERS, false).beforeSend()).as("the next test").isZero();
	}

	@Test
	void aSuccessClosesIt() {
		refuse(5, null);
		this.clock.advance(Duration.ofSeconds(30));
		answer(200);

		refuse(1, null);

		assertThat(this.client.start("GET", ORDERS, false).beforeSend()).isZero();
	}

	@Test
	void otherHostsAreNotAffected() {
		refuse(5, null);

		assertThat(this.client.start("GET", URI.create("https://other.example.com/"), false).beforeSend()).isZero();
	}

	@Test
	void aRetryThatTheBreakerWouldRefuseGivesUpAtOnce() {
		RateLimitClient client = new RateLimitClient(
				ClientRetrySettings.DEFAULTS.withPacing(false).withBreaker(2, Duration.ofSeconds(30)), this.clock,
				new Random(5), this.events);
		ClientCall call = client.start("GET", ORDERS, false);
		call.beforeSend();
		ClientDecision first = call.afterResponse(429, ServerResponses.headers("Retry-After", "1"), () -> null);
		this.clock.advance(((ClientDecision.Retry) first).delay());
		call.beforeSend();

		ClientDecision second = call.afterResponse(429, ServerResponses.headers("Retry-After", "1"), () -> null);

		assertThat(second).isInstanceOfSatisfying(ClientDecision.GiveUp.class,
				(giveUp) -> assertThat(giveUp.exception().reason()).isEqualTo(GiveUpReason.BREAKER_OPEN));
	}

	@Test
	void canBeTurnedOff() {
		RateLimitClient client = new RateLimitClient(
				ClientRetrySettings.DEFAULTS.withPacing(false).withBreaker(0, Duration.ofSeconds(30)), this.clock,
				new Random(5), this.events);
		for (int i = 0; i < 20; i++) {
			ClientCall call = client.start("GET", ORDERS, false);
			call.beforeSend();
			call.afterResponse(429, HeaderLookup.none(), () -> null);
		}

		assertThat(client.start("GET", ORDERS, false).beforeSend()).isZero();
	}

	private void assertTheNextRequestTestsAndTheRestWait() {
		assertThat(this.client.start("GET", ORDERS, false).beforeSend()).as("the next test").isZero();
		assertThatExceptionOfType(RateLimitedException.class)
			.isThrownBy(() -> this.client.start("GET", ORDERS, false).beforeSend());
	}

	private void refuse(int times, String retryAfter) {
		HeaderLookup headers = (retryAfter != null) ? ServerResponses.headers("Retry-After", retryAfter)
				: HeaderLookup.none();
		for (int i = 0; i < times; i++) {
			ClientCall call = this.client.start("GET", ORDERS, false);
			call.beforeSend();
			assertThat(call.afterResponse(429, headers, () -> null)).isInstanceOf(ClientDecision.GiveUp.class);
		}
	}

	private void answer(int status) {
		ClientCall call = this.client.start("GET", ORDERS, false);
		call.beforeSend();
		call.afterResponse(status, HeaderLookup.none(), () -> null);
	}

}
