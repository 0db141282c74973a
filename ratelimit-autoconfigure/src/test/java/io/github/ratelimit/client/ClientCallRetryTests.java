package io.github.ratelimit.client;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Random;
import java.util.function.Supplier;

import org.junit.jupiter.api.Test;

import io.github.ratelimit.core.Decision;
import io.github.ratelimit.http.HeaderStyle;
import io.github.ratelimit.test.ManualTimeMeter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Which responses a call retries, after how long, and how it gives up: the rules of the
 * guide for rate-limited callers.
 */
class ClientCallRetryTests {

	private static final URI ORDERS = URI.create("https://api.example.com/orders/42");

	private static final HeaderLookup NONE = HeaderLookup.none();

	private final ManualTimeMeter clock = new ManualTimeMeter(Instant.parse("2026-01-17T12:34:33Z"));

	private final RecordedEvents events = new RecordedEvents();

	@Test
	void retriesAGetAfterRetryAfterExtendedByJitter() {
		ClientCall call = client(ClientRetrySettings.DEFAULTS).start("GET", ORDERS, false);
		call.beforeSend();

		Duration wait = retry(call.afterResponse(429, ServerResponses.headers("Retry-After", "8"), noBody()));

		assertThat(wait).isBetween(Duration.ofSeconds(8), Duration.ofSeconds(9));
		assertThat(this.events.lines).containsExactly("retried api.example.com 429",
				"waited api.example.com retry-after");
	}

	@Test
	void waitsForTheResetOfTheExhaustedPolicyWhenThereIsNoRetryAfter() {
		ClientCall call = client(ClientRetrySettings.DEFAULTS).start("GET", ORDERS, false);
		call.beforeSend();
		HeaderLookup headers = ServerResponses.headers("RateLimit", "\"premium-org-export\";r=0;t=5");

		Duration wait = retry(call.afterResponse(429, headers, noBody()));

		assertThat(wait).isBetween(Duration.ofSeconds(5), Duration.ofSeconds(6));
		assertThat(this.events.lines).contains("waited api.example.com reset");
	}

	@Test
	void waitsWhatOurServerSaysInEveryHeaderStyle() {
		Decision.Rejected refusal = ServerResponses.orgRefusal(12);
		for (HeaderStyle style : HeaderStyle.values()) {
			ClientCall call = client(ClientRetrySettings.DEFAULTS.withJitter(Duration.ZERO)).start("GET", ORDERS,
					false);
			call.beforeSend();

			Duration wait = retry(call.afterResponse(429, ServerResponses.lookup(refusal, style), noBody()));

			assertThat(wait).as("%s", style).isEqualTo(Duration.ofSeconds(12));
		}
	}

	@Test
	void backsOffExponentiallyWithFullJitterWhenTheRefusalSaysNothing() {
		ClientRetrySettings settings = ClientRetrySettings.DEFAULTS.withMaxAttempts(6)
			.withMaxDelay(Duration.ofMillis(1500));
		Duration[] caps = { Duration.ofMillis(500), Duration.ofSeconds(1), Duration.ofMillis(1500),
				Duration.ofMillis(1500), Duration.ofMillis(1500) };
		for (int seed = 0; seed < 50; seed++) {
			ClientCall call = client(settings, new Random(seed)).start("GET", ORDERS, false);
			for (Duration cap : caps) {
				call.beforeSend();
				Duration wait = retry(call.afterResponse(429, NONE, noBody()));
				assertThat(wait).isBetween(Duration.ZERO, cap);
				this.clock.advance(wait);
			}
			call.beforeSend();
			assertThat(call.afterResponse(429, NONE, noBody())).isInstanceOf(ClientDecision.GiveUp.class);
		}
		assertThat(this.events.lines).contains("waited api.example.com backoff");
	}

	@Test
	void neverRetriesWhatCannotSucceedUnchanged() {
		for (int status : new int[] { 200, 204, 400, 401, 403, 404, 409, 422, 500, 502, 503 }) {
			ClientCall call = client(ClientRetrySettings.DEFAULTS).start("GET", ORDERS, false);
			call.beforeSend();
			HeaderLookup headers = (status == 503) ? NONE : ServerResponses.headers("Retry-After", "1");

			assertThat(call.afterResponse(status, headers, failOnRead())).as("%s", status)
				.isInstanceOf(ClientDecision.Done.class);
		}
		assertThat(this.events.lines).isEmpty();
	}

	@Test
	void retriesA503OnlyWithRetryAfter() {
		ClientCall call = client(ClientRetrySettings.DEFAULTS).start("GET", ORDERS, false);
		call.beforeSend();

		Duration wait = retry(call.afterResponse(503, ServerResponses.headers("Retry-After", "2"), noBody()));

		assertThat(wait).isBetween(Duration.ofSeconds(2), Duration.ofSeconds(3));
	}

	@Test
	void doesNotRetryAPostWithoutAnIdempotencyKey() {
		Decision.Rejected refusal = ServerResponses.orgRefusal(8);
		ClientCall call = client(ClientRetrySettings.DEFAULTS).start("post", ORDERS, false);
		call.beforeSend();

		RateLimitedException exception = giveUp(call.afterResponse(429,
				ServerResponses.lookup(refusal, HeaderStyle.IETF), () -> ServerResponses.body(refusal)));

		assertThat(exception.getMessage())
			.isEqualTo("Rate limit exceeded for org. Retry after 8s or reduce concurrency. "
					+ "POST is not retried without an Idempotency-Key.");
		assertThat(exception.safeToRetry()).isFalse();
		assertThat(exception.reason()).isEqualTo(GiveUpReason.UNSAFE_METHOD);
		assertThat(exception.status()).isEqualTo(429);
		assertThat(exception.retryAfter()).isEqualTo(Duration.ofSeconds(8));
		assertThat(exception.attempts()).isOne();
		assertThat(exception.problem()).isNotNull();
		assertThat(exception.problem().requestId()).isEqualTo("7f9c2b1e4d");
		assertThat(exception.problem().policy()).isEqualTo("100;w=60");
		assertThat(this.events.lines).containsExactly("few remaining api.example.com premium-org-export 0/100",
				"gave up api.example.com 429 unsafe-method");
	}

	@Test
	void saysTheServiceIsUnavailableOnA503() {
		ClientCall call = client(ClientRetrySettings.DEFAULTS).start("POST", ORDERS, false);
		call.beforeSend();

		RateLimitedException exception = giveUp(
				call.afterResponse(503, ServerResponses.headers("Retry-After", "2"), noBody()));

		assertThat(exception.status()).isEqualTo(503);
		assertThat(exception.getMessage()).isEqualTo(
				"Service unavailable at api.example.com. Retry after 2s. POST is not retried without an Idempotency-Key.");
	}

	@Test
	void retriesAPostWithAnIdempotencyKey() {
		ClientCall call = client(ClientRetrySettings.DEFAULTS).start("POST", ORDERS, true);
		call.beforeSend();

		assertThat(call.afterResponse(429, ServerResponses.headers("Retry-After", "1"), failOnRead()))
			.isInstanceOf(ClientDecision.Retry.class);
	}

	@Test
	void retriesEveryIdempotentMethod() {
		for (String method : new String[] { "GET", "HEAD", "OPTIONS", "PUT", "DELETE", "TRACE" }) {
			ClientCall call = client(ClientRetrySettings.DEFAULTS).start(method, ORDERS, false);
			call.beforeSend();

			assertThat(call.afterResponse(429, ServerResponses.headers("Retry-After", "1"), failOnRead())).as(method)
				.isInstanceOf(ClientDecision.Retry.class);
		}
		ClientCall patch = client(ClientRetrySettings.DEFAULTS).start("PATCH", ORDERS, false);
		patch.beforeSend();
		assertThat(patch.afterResponse(429, ServerResponses.headers("Retry-After", "1"), noBody()))
			.isInstanceOf(ClientDecision.GiveUp.class);
	}

	@Test
	void givesUpAtOnceWhenTheServerAsksForALongerWaitThanMaxDelay() {
		Decision.Rejected refusal = ServerResponses.orgRefusal(95);
		ClientCall call = client(ClientRetrySettings.DEFAULTS).start("GET", ORDERS, false);
		call.beforeSend();

		RateLimitedException exception = giveUp(call.afterResponse(429,
				ServerResponses.lookup(refusal, HeaderStyle.X_RATELIMIT), () -> ServerResponses.body(refusal)));

		assertThat(exception.reason()).isEqualTo(GiveUpReason.WAIT_TOO_LONG);
		assertThat(exception.retryAfter()).isEqualTo(Duration.ofSeconds(95));
		assertThat(exception.safeToRetry()).isTrue();
		assertThat(exception.getMessage()).isEqualTo("Rate limit exceeded for org. Retry after 1m 35s or reduce "
				+ "concurrency. The wait is longer than the client's max delay of 30s.");
	}

	@Test
	void aJitteredWaitIsCappedByMaxDelay() {
		ClientCall call = client(ClientRetrySettings.DEFAULTS.withJitter(Duration.ofSeconds(10))).start("GET", ORDERS,
				false);
		call.beforeSend();

		assertThat(retry(call.afterResponse(429, ServerResponses.headers("Retry-After", "29"), noBody())))
			.isBetween(Duration.ofSeconds(29), Duration.ofSeconds(30));
	}

	@Test
	void givesUpWhenTheAttemptsAreSpent() {
		Decision.Rejected refusal = ServerResponses.orgRefusal(2);
		HeaderLookup headers = ServerResponses.lookup(refusal, HeaderStyle.IETF);
		ClientCall call = client(ClientRetrySettings.DEFAULTS).start("GET", ORDERS, false);
		for (int attempt = 1; attempt < 4; attempt++) {
			assertThat(call.beforeSend()).isZero();
			this.clock.advance(retry(call.afterResponse(429, headers, failOnRead())));
		}
		assertThat(call.beforeSend()).isZero();

		RateLimitedException exception = giveUp(call.afterResponse(429, headers, () -> ServerResponses.body(refusal)));

		assertThat(exception.attempts()).isEqualTo(4);
		assertThat(exception.reason()).isEqualTo(GiveUpReason.ATTEMPTS);
		assertThat(exception.getMessage())
			.isEqualTo("Rate limit exceeded for org. Retry after 2s or reduce concurrency. Gave up after 4 attempts.");
	}

	@Test
	void givesUpWhenTheWaitsWouldSpendMoreThanTheBudget() {
		ClientRetrySettings settings = ClientRetrySettings.DEFAULTS.withMaxAttempts(10)
			.withMaxTotalWait(Duration.ofSeconds(20));
		ClientCall call = client(settings).start("GET", ORDERS, false);
		HeaderLookup headers = ServerResponses.headers("Retry-After", "8");
		Duration total = Duration.ZERO;
		ClientDecision decision;
		while (true) {
			call.beforeSend();
			decision = call.afterResponse(429, headers, noBody());
			if (!(decision instanceof ClientDecision.Retry retry)) {
				break;
			}
			total = total.plus(retry.delay());
			this.clock.advance(retry.delay());
		}

		RateLimitedException exception = giveUp(decision);
		assertThat(exception.reason()).isEqualTo(GiveUpReason.BUDGET);
		assertThat(exception.attempts()).isEqualTo(3);
		assertThat(total).isBetween(Duration.ofSeconds(16), Duration.ofSeconds(18));
		assertThat(exception.getMessage()).isEqualTo("Rate limit exceeded at api.example.com. Retry after 8s or "
				+ "reduce concurrency. Waiting would exceed the client's total wait of 20s.");
	}

	@Test
	void backoffStopsAtTheBudget() {
		ClientRetrySettings settings = ClientRetrySettings.DEFAULTS.withMaxAttempts(100)
			.withInitialBackoff(Duration.ofSeconds(10))
			.withMaxTotalWait(Duration.ofSeconds(25));
		ClientCall call = client(settings).start("GET", ORDERS, false);
		Duration total = Duration.ZERO;
		ClientDecision decision;
		while (true) {
			call.beforeSend();
			decision = call.afterResponse(429, NONE, noBody());
			if (!(decision instanceof ClientDecision.Retry retry)) {
				break;
			}
			total = total.plus(retry.delay());
			this.clock.advance(retry.delay());
		}

		assertThat(giveUp(decision).reason()).isEqualTo(GiveUpReason.BUDGET);
		assertThat(total).isEqualTo(Duration.ofSeconds(25));
	}

	private RateLimitClient client(ClientRetrySettings settings) {
		return client(settings, new Random(7));
	}

	private RateLimitClient client(ClientRetrySettings settings, Random random) {
		return new RateLimitClient(settings.withBreaker(0, Duration.ZERO), this.clock, random, this.events);
	}

	private static Duration retry(ClientDecision decision) {
		assertThat(decision).isInstanceOf(ClientDecision.Retry.class);
		return ((ClientDecision.Retry) decision).delay();
	}

	private static RateLimitedException giveUp(ClientDecision decision) {
		assertThat(decision).isInstanceOf(ClientDecision.GiveUp.class);
		return ((ClientDecision.GiveUp) decision).exception();
	}

	private static Supplier<byte[]> noBody() {
		return () -> new byte[0];
	}

	/**
	 * The body of a response that is retried or handed to the caller is not the client's
	 * to read.
	 */
	private static Supplier<byte[]> failOnRead() {
		return () -> fail("the body was read");
	}

}
