package io.github.ratelimit.client;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.web.client.NoOpResponseErrorHandler;
import org.springframework.web.client.RestClient;
import org.springframework.web.client.RestTemplate;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * The three Spring HTTP clients, each with the client side added by hand, its waits
 * recorded on a {@link TestClock} instead of waited: a test runs the same script through
 * each.
 */
enum Adapter {

	/** {@code RestClient} with {@link RateLimitClientHttpRequestInterceptor}. */
	REST_CLIENT {
		@Override
		Caller caller(RateLimitClient client, TestClock clock) {
			RecordingSleeper sleeper = new RecordingSleeper(clock);
			RestClient rest = RestClient.builder()
				.requestFactory(new JdkClientHttpRequestFactory())
				.requestInterceptor(new RateLimitClientHttpRequestInterceptor(client, sleeper))
				.build();
			return new Caller(sleeper::waits) {

				@Override
				int call(String method, URI uri, @Nullable String idempotencyKey) {
					return rest.method(HttpMethod.valueOf(method))
						.uri(uri)
						.headers((headers) -> idempotencyKey(headers, idempotencyKey))
						.body(body(method))
						.exchange((request, response) -> response.getStatusCode().value());
				}

			};
		}
	},

	/** {@code RestTemplate} with {@link RateLimitClientHttpRequestInterceptor}. */
	REST_TEMPLATE {
		@Override
		Caller caller(RateLimitClient client, TestClock clock) {
			RecordingSleeper sleeper = new RecordingSleeper(clock);
			RestTemplate rest = new RestTemplate(new JdkClientHttpRequestFactory());
			rest.getInterceptors().add(new RateLimitClientHttpRequestInterceptor(client, sleeper));
			rest.setErrorHandler(new NoOpResponseErrorHandler());
			return new Caller(sleeper::waits) {

				@Override
				int call(String method, URI uri, @Nullable String idempotencyKey) {
					Integer status = rest.execute(uri, HttpMethod.valueOf(method), (request) -> {
						idempotencyKey(request.getHeaders(), idempotencyKey);
						request.getBody().write(body(method).getBytes(StandardCharsets.UTF_8));
					}, (response) -> response.getStatusCode().value());
					return (status != null) ? status : -1;
				}

			};
		}
	},

	/** {@code WebClient} with {@link RateLimitExchangeFilterFunction}. */
	WEB_CLIENT {
		@Override
		Caller caller(RateLimitClient client, TestClock clock) {
			RecordingScheduler scheduler = new RecordingScheduler(clock);
			WebClient web = WebClient.builder().filter(new RateLimitExchangeFilterFunction(client, scheduler)).build();
			return new Caller(scheduler::delays) {

				@Override
				int call(String method, URI uri, @Nullable String idempotencyKey) {
					Integer status = web.method(HttpMethod.valueOf(method))
						.uri(uri)
						.headers((headers) -> idempotencyKey(headers, idempotencyKey))
						.bodyValue(body(method))
						.exchangeToMono((response) -> response.releaseBody().thenReturn(response.statusCode().value()))
						.block(Duration.ofSeconds(10));
					return (status != null) ? status : -1;
				}

			};
		}
	};

	abstract Caller caller(RateLimitClient client, TestClock clock);

	private static void idempotencyKey(HttpHeaders headers, @Nullable String key) {
		if (key != null) {
			headers.set("Idempotency-Key", key);
		}
	}

	private static String body(String method) {
		return method.equals("POST") ? "{\"order\":1}" : "";
	}

	/** One client, and the waits it took. */
	abstract static class Caller {

		private final Supplier<List<Duration>> waits;

		Caller(Supplier<List<Duration>> waits) {
			this.waits = waits;
		}

		/**
		 * Calls; returns the status handed back, or throws the client's
		 * {@link RateLimitedException}.
		 */
		abstract int call(String method, URI uri, @Nullable String idempotencyKey);

		/** The waits the client took, in order. */
		List<Duration> waits() {
			return this.waits.get();
		}

	}

}
