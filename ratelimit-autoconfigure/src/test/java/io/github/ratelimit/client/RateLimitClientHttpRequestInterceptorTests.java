package io.github.ratelimit.client;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.SplittableRandom;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpRequest;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.client.ClientHttpRequestExecution;
import org.springframework.http.client.ClientHttpResponse;
import org.springframework.mock.http.client.MockClientHttpRequest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The blocking interceptor's handling of each response: a refused one is closed before
 * the wait and its body left unread, the body is read only for the exception, an
 * interrupted wait ends the call with the thread's flag set, and an open breaker keeps
 * the request off the wire.
 */
class RateLimitClientHttpRequestInterceptorTests {

	private final TestClock clock = new TestClock();

	private final RecordingSleeper sleeper = new RecordingSleeper(this.clock);

	private final Deque<Response> responses = new ArrayDeque<>();

	private int executed;

	private final ClientHttpRequestExecution execution = (request, body) -> {
		this.executed++;
		return this.responses.remove();
	};

	@AfterEach
	void clearInterrupt() {
		Thread.interrupted();
	}

	@Test
	void closesARefusalUnreadBeforeItWaitsAndHandsBackTheNextResponseOpen() throws IOException {
		Response refusal = new Response(429, "{\"scope\":\"org\"}", "Retry-After", "3");
		Response success = new Response(200, "ok");
		this.responses.add(refusal);
		this.responses.add(success);
		ClientHttpResponse handedBack = interceptor(ClientRetrySettings.DEFAULTS).intercept(request(HttpMethod.GET),
				new byte[0], this.execution);
		assertThat(handedBack).isSameAs(success);
		assertThat(refusal.closed).isTrue();
		assertThat(refusal.bodyRead).isFalse();
		assertThat(success.closed).isFalse();
		assertThat(this.sleeper.waits()).singleElement()
			.satisfies((wait) -> assertThat(wait).isBetween(Duration.ofSeconds(3), Duration.ofSeconds(4)));
	}

	@Test
	void readsTheBodyForTheExceptionWhenItGivesUpAndClosesTheResponse() {
		Response refusal = new Response(429, "{\"scope\":\"org\",\"request_id\":\"r-1\"}", "Retry-After", "3",
				"Content-Type", "application/problem+json");
		this.responses.add(refusal);
		RateLimitedException refused = catchThrowableOfType(RateLimitedException.class,
				() -> interceptor(ClientRetrySettings.DEFAULTS).intercept(request(HttpMethod.POST), new byte[0],
						this.execution));
		assertThat(refused.problem().requestId()).isEqualTo("r-1");
		assertThat(refusal.bodyRead).isTrue();
		assertThat(refusal.closed).isTrue();
	}

	@Test
	void endsTheCallWhenItsWaitIsInterrupted() {
		this.responses.add(new Response(429, "", "Retry-After", "3"));
		RateLimitClientHttpRequestInterceptor interceptor = new RateLimitClientHttpRequestInterceptor(
				client(ClientRetrySettings.DEFAULTS), (duration) -> {
					throw new InterruptedException();
				});
		InterruptedIOException interrupted = catchThrowableOfType(InterruptedIOException.class,
				() -> interceptor.intercept(request(HttpMethod.GET), new byte[0], this.execution));
		assertThat(interrupted).hasCauseInstanceOf(InterruptedException.class);
		assertThat(Thread.currentThread().isInterrupted()).isTrue();
		assertThat(this.executed).isOne();
	}

	@Test
	void sendsNothingToAHostWhoseBreakerIsOpen() {
		this.responses.add(new Response(429, "", "Retry-After", "3"));
		RateLimitClientHttpRequestInterceptor interceptor = interceptor(
				ClientRetrySettings.DEFAULTS.withBreaker(1, Duration.ofSeconds(30)));
		catchThrowableOfType(RateLimitedException.class,
				() -> interceptor.intercept(request(HttpMethod.POST), new byte[0], this.execution));
		RateLimitedException refused = catchThrowableOfType(RateLimitedException.class,
				() -> interceptor.intercept(request(HttpMethod.GET), new byte[0], this.execution));
		assertThat(refused.reason()).isEqualTo(GiveUpReason.BREAKER_OPEN);
		assertThat(refused.attempts()).isZero();
		assertThat(this.executed).isOne();
	}

	@Test
	void aTestOfAHalfOpenBreakerThatFailsToSendLetsTheNextRequestTest() {
		this.responses.add(new Response(429, ""));
		RateLimitClientHttpRequestInterceptor interceptor = interceptor(
				ClientRetrySettings.DEFAULTS.withMaxAttempts(1).withBreaker(1, Duration.ofSeconds(30)));
		catchThrowableOfType(RateLimitedException.class,
				() -> interceptor.intercept(request(HttpMethod.GET), new byte[0], this.execution));
		this.clock.advance(Duration.ofSeconds(30));
		ClientHttpRequestExecution unreachable = (request, body) -> {
			throw new IOException("Connection refused");
		};
		catchThrowableOfType(IOException.class,
				() -> interceptor.intercept(request(HttpMethod.GET), new byte[0], unreachable));

		Response success = new Response(200, "ok");
		this.responses.add(success);
		assertThat(catchThrowableOfType(RateLimitedException.class,
				() -> assertThat(interceptor.intercept(request(HttpMethod.GET), new byte[0], this.execution))
					.isSameAs(success)))
			.as("sent as the next test, not held back")
			.isNull();
	}

	private RateLimitClientHttpRequestInterceptor interceptor(ClientRetrySettings settings) {
		return new RateLimitClientHttpRequestInterceptor(client(settings), this.sleeper);
	}

	private RateLimitClient client(ClientRetrySettings settings) {
		return new RateLimitClient(settings, this.clock, new SplittableRandom(22), ClientEvents.NONE);
	}

	private static HttpRequest request(HttpMethod method) {
		return new MockClientHttpRequest(method, URI.create("http://api.example.com/orders"));
	}

	/** A response that says whether its body was read and whether it was closed. */
	private static final class Response implements ClientHttpResponse {

		private final int status;

		private final byte[] body;

		private final HttpHeaders headers = new HttpHeaders();

		private boolean bodyRead;

		private boolean closed;

		Response(int status, String body, String... headers) {
			this.status = status;
			this.body = body.getBytes(StandardCharsets.UTF_8);
			for (int i = 0; i < headers.length; i += 2) {
				this.headers.add(headers[i], headers[i + 1]);
			}
		}

		@Override
		public HttpStatusCode getStatusCode() {
			return HttpStatus.valueOf(this.status);
		}

		@Override
		public String getStatusText() {
			return "";
		}

		@Override
		public HttpHeaders getHeaders() {
			return this.headers;
		}

		@Override
		public InputStream getBody() {
			this.bodyRead = true;
			return new ByteArrayInputStream(this.body);
		}

		@Override
		public void close() {
			this.closed = true;
		}

	}

}
