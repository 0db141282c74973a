package io.github.ratelimit.client;

import java.io.IOException;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import io.github.ratelimit.client.Adapter.Caller;
import io.github.ratelimit.client.ScriptedServer.Received;
import io.github.ratelimit.client.ScriptedServer.Reply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * RestClient, RestTemplate and WebClient against a fake API that answers scripted
 * responses: the wait each client takes is the one the response asked for (every header
 * family our servers write, GitHub's epoch reset, {@code Retry-After} as seconds and as a
 * date), extended by at most the jitter; what must not be retried goes on the wire once;
 * a call that runs out of attempts or time fails with what a caller needs.
 */
class RateLimitClientFakeServerTests {

	private static final Duration WAIT = Duration.ofSeconds(8);

	private static final Duration JITTER = Duration.ofSeconds(1);

	private final TestClock clock = new TestClock();

	private ScriptedServer server;

	@BeforeEach
	void startServer() throws IOException {
		this.server = new ScriptedServer();
	}

	@AfterEach
	void stopServer() {
		this.server.close();
	}

	static Stream<Arguments> refusals() {
		long resetEpoch = TestClock.START.plus(WAIT).getEpochSecond();
		String retryDate = DateTimeFormatter.RFC_1123_DATE_TIME
			.format(TestClock.START.plus(WAIT).atOffset(ZoneOffset.UTC));
		List<Arguments> refusals = List.of(
				Arguments.of("ietf",
						Reply.status(429)
							.header("RateLimit", "\"default\";r=0;t=8")
							.header("RateLimit-Policy", "\"default\";q=100;w=60")),
				Arguments.of("draft7", Reply.status(429).header("RateLimit", "limit=100, remaining=0, reset=8")),
				Arguments.of("split",
						Reply.status(429)
							.header("RateLimit-Limit", "100")
							.header("RateLimit-Remaining", "0")
							.header("RateLimit-Reset", "8")),
				Arguments.of("x-ratelimit, reset in seconds",
						Reply.status(429)
							.header("X-RateLimit-Limit", "100")
							.header("X-RateLimit-Remaining", "0")
							.header("X-RateLimit-Reset", "8")),
				Arguments.of("x-ratelimit, GitHub's epoch reset",
						Reply.status(429)
							.header("X-RateLimit-Limit", "5000")
							.header("X-RateLimit-Remaining", "0")
							.header("X-RateLimit-Reset", Long.toString(resetEpoch))),
				Arguments.of("Retry-After in seconds", Reply.status(429).header("Retry-After", "8")),
				Arguments.of("Retry-After as an HTTP date", Reply.status(429).header("Retry-After", retryDate)),
				Arguments.of("503 with Retry-After", Reply.status(503).header("Retry-After", "8")));
		return Stream.of(Adapter.values())
			.flatMap((adapter) -> refusals.stream()
				.map((refusal) -> Arguments.of(adapter, refusal.get()[0], refusal.get()[1])));
	}

	@ParameterizedTest(name = "{0}: {1}")
	@MethodSource("refusals")
	void waitsWhatTheRefusalSaysThenSendsAgain(Adapter adapter, String family, Reply refusal) {
		this.server.then(refusal);
		Caller caller = adapter.caller(client(ClientRetrySettings.DEFAULTS), this.clock);
		assertThat(caller.call("GET", this.server.uri("/orders"), null)).isEqualTo(200);
		assertThat(this.server.received()).hasSize(2);
		assertThat(total(caller.waits())).as("waits %s", caller.waits()).isBetween(WAIT, WAIT.plus(JITTER));
	}

	@ParameterizedTest
	@EnumSource(Adapter.class)
	void doesNotRetryAPostWithoutAnIdempotencyKey(Adapter adapter) {
		this.server.then(Reply.status(429).header("Retry-After", "8"));
		Caller caller = adapter.caller(client(ClientRetrySettings.DEFAULTS), this.clock);
		RateLimitedException refused = catchThrowableOfType(RateLimitedException.class,
				() -> caller.call("POST", this.server.uri("/orders"), null));
		assertThat(refused.status()).isEqualTo(429);
		assertThat(refused.safeToRetry()).isFalse();
		assertThat(refused.attempts()).isEqualTo(1);
		assertThat(refused.retryAfter()).isEqualTo(WAIT);
		assertThat(refused.getMessage()).contains("POST is not retried without an Idempotency-Key");
		assertThat(this.server.received()).hasSize(1);
		assertThat(caller.waits()).isEmpty();
	}

	@ParameterizedTest
	@EnumSource(Adapter.class)
	void retriesAPostWithAnIdempotencyKeyWithTheSameKeyAndBody(Adapter adapter) {
		this.server.then(Reply.status(429).header("Retry-After", "8"));
		Caller caller = adapter.caller(client(ClientRetrySettings.DEFAULTS), this.clock);
		assertThat(caller.call("POST", this.server.uri("/orders"), "order-1")).isEqualTo(200);
		assertThat(this.server.received()).hasSize(2)
			.allSatisfy((received) -> assertThat(received)
				.isEqualTo(new Received("POST", "/orders", "order-1", "{\"order\":1}")));
		assertThat(total(caller.waits())).isBetween(WAIT, WAIT.plus(JITTER));
	}

	static Stream<Arguments> neverRetried() {
		return Stream.of(Adapter.values())
			.flatMap((adapter) -> Stream.of(401, 404, 409).map((status) -> Arguments.of(adapter, status)));
	}

	@ParameterizedTest(name = "{0}: {1}")
	@MethodSource("neverRetried")
	void handsBackWhatCannotSucceedUnchangedAfterOneRequest(Adapter adapter, int status) {
		// even when the server says when to come back
		this.server.then(Reply.status(status)
			.header("Retry-After", "8")
			.body("application/problem+json", "{\"status\":" + status + "}"));
		Caller caller = adapter.caller(client(ClientRetrySettings.DEFAULTS), this.clock);
		assertThat(caller.call("GET", this.server.uri("/orders/1"), null)).isEqualTo(status);
		assertThat(this.server.received()).hasSize(1);
		assertThat(caller.waits()).isEmpty();
	}

	@ParameterizedTest
	@EnumSource(Adapter.class)
	void givesUpAfterItsAttemptsWithTheProblemsMembers(Adapter adapter) {
		this.server.thenAlways(Reply.status(429)
			.header("Retry-After", "2")
			.body("application/problem+json",
					"{\"type\":\"https://iana.org/assignments/http-problem-types#quota-exceeded\","
							+ "\"title\":\"Too Many Requests\",\"status\":429,"
							+ "\"detail\":\"Request rate exceeded for org 'acme'. Retry after 2 seconds.\","
							+ "\"code\":\"rate_limit_exceeded\",\"scope\":\"org\",\"policy\":\"100;w=60\","
							+ "\"request_id\":\"7f9c2b1e4d\"}"));
		Caller caller = adapter.caller(client(ClientRetrySettings.DEFAULTS.withMaxAttempts(3)), this.clock);
		RateLimitedException refused = catchThrowableOfType(RateLimitedException.class,
				() -> caller.call("GET", this.server.uri("/orders"), null));
		assertThat(this.server.received()).hasSize(3);
		assertThat(caller.waits()).hasSize(2)
			.allSatisfy((wait) -> assertThat(wait).isBetween(Duration.ofSeconds(2), Duration.ofSeconds(3)));
		assertThat(refused.status()).isEqualTo(429);
		assertThat(refused.attempts()).isEqualTo(3);
		assertThat(refused.safeToRetry()).isTrue();
		assertThat(refused.retryAfter()).isEqualTo(Duration.ofSeconds(2));
		assertThat(refused.problem()).isNotNull();
		assertThat(refused.problem().scope()).isEqualTo("org");
		assertThat(refused.problem().code()).isEqualTo("rate_limit_exceeded");
		assertThat(refused.problem().requestId()).isEqualTo("7f9c2b1e4d");
		assertThat(refused.getMessage()).startsWith("Rate limit exceeded for org. Retry after 2s");
	}

	@ParameterizedTest
	@EnumSource(Adapter.class)
	void givesUpWhenTheNextWaitWouldSpendMoreThanTheBudget(Adapter adapter) {
		this.server.thenAlways(Reply.status(429).header("Retry-After", "2"));
		ClientRetrySettings settings = ClientRetrySettings.DEFAULTS.withMaxAttempts(10)
			.withJitter(Duration.ZERO)
			.withMaxTotalWait(Duration.ofSeconds(5));
		Caller caller = adapter.caller(client(settings), this.clock);
		RateLimitedException refused = catchThrowableOfType(RateLimitedException.class,
				() -> caller.call("GET", this.server.uri("/orders"), null));
		// 2s + 2s spent; another 2s would pass 5s
		assertThat(caller.waits()).containsExactly(Duration.ofSeconds(2), Duration.ofSeconds(2));
		assertThat(this.server.received()).hasSize(3);
		assertThat(refused.attempts()).isEqualTo(3);
		assertThat(refused.safeToRetry()).isTrue();
	}

	@ParameterizedTest
	@EnumSource(Adapter.class)
	void givesUpAtOnceWhenTheServerAsksForMoreThanTheLongestWait(Adapter adapter) {
		this.server.then(Reply.status(429).header("Retry-After", "120"));
		Caller caller = adapter.caller(client(ClientRetrySettings.DEFAULTS), this.clock);
		RateLimitedException refused = catchThrowableOfType(RateLimitedException.class,
				() -> caller.call("GET", this.server.uri("/orders"), null));
		assertThat(refused.retryAfter()).isEqualTo(Duration.ofSeconds(120));
		assertThat(refused.safeToRetry()).isTrue();
		assertThat(this.server.received()).hasSize(1);
		assertThat(caller.waits()).isEmpty();
	}

	@ParameterizedTest
	@EnumSource(Adapter.class)
	void holdsTheNextCallToAHostWhosePolicyIsExhausted(Adapter adapter) {
		// a success that spent the last request of the window
		this.server.then(Reply.status(200)
			.header("RateLimit", "\"default\";r=0;t=8")
			.header("RateLimit-Policy", "\"default\";q=100;w=60"));
		Caller caller = adapter.caller(client(ClientRetrySettings.DEFAULTS), this.clock);
		assertThat(caller.call("GET", this.server.uri("/orders"), null)).isEqualTo(200);
		assertThat(caller.waits()).isEmpty();
		assertThat(caller.call("GET", this.server.uri("/orders"), null)).isEqualTo(200);
		assertThat(this.server.received()).hasSize(2);
		assertThat(total(caller.waits())).isBetween(WAIT, WAIT.plus(JITTER));
	}

	private RateLimitClient client(ClientRetrySettings settings) {
		return new RateLimitClient(settings, this.clock, new SplittableRandom(22), ClientEvents.NONE);
	}

	private static Duration total(List<Duration> waits) {
		return waits.stream().reduce(Duration.ZERO, Duration::plus);
	}

}
