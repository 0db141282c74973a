package io.github.ratelimit.sample;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.http.client.ClientHttpResponse;
import org.springframework.web.client.RestClient;

import io.github.ratelimit.client.ClientRetrySettings;
import io.github.ratelimit.client.RateLimitClient;
import io.github.ratelimit.client.RateLimitClientHttpRequestInterceptor;
import io.github.ratelimit.client.RateLimitedException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The starter's calling side against the sample app, as a team calling it from another
 * Spring service would use it: a {@link RestClient} with the rate-limit interceptor,
 * trust scores limited to 3 per 2-second window for anonymous callers.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = {
		"ratelimit.tiers.anonymous.ip.trust-scoring=3/2s fixed", "ratelimit.tiers.anonymous.ip.notifications=1/1h" })
class SampleClientTests {

	@LocalServerPort
	int port;

	/** The status of every request that went on the wire, after the client's retries. */
	private final List<Integer> onTheWire = new CopyOnWriteArrayList<>();

	private RestClient client() {
		return RestClient.builder()
			.baseUrl("http://127.0.0.1:" + this.port)
			.requestInterceptor(
					new RateLimitClientHttpRequestInterceptor(new RateLimitClient(ClientRetrySettings.DEFAULTS)))
			// after the client's interceptor: it sees each attempt
			.requestInterceptor((request, body, execution) -> {
				ClientHttpResponse response = execution.execute(request, body);
				this.onTheWire.add(response.getStatusCode().value());
				return response;
			})
			.build();
	}

	@Test
	void aLoopOfCallsAllSucceedsPacedToTheLimitWithoutRefusalsOnTheWire() {
		RestClient client = client();
		long start = System.nanoTime();
		for (int i = 0; i < 9; i++) {
			int status = client.get()
				.uri("/v1/trust-score/entity-{i}", i)
				.retrieve()
				.toBodilessEntity()
				.getStatusCode()
				.value();
			assertThat(status).as("call %d", i).isEqualTo(200);
		}
		Duration took = Duration.ofNanos(System.nanoTime() - start);
		// 9 calls at 3 per window span three windows: at least the whole middle one
		assertThat(took).isBetween(Duration.ofSeconds(2), Duration.ofSeconds(20));
		// the third response of a window shows it spent: the client holds the next call
		// until the window ends instead of sending it to be refused
		assertThat(this.onTheWire.stream().filter((status) -> status == 429).count())
			.as("refusals on the wire: %s", this.onTheWire)
			.isLessThanOrEqualTo(2);
		assertThat(this.onTheWire.stream().filter((status) -> status == 200).count()).isEqualTo(9);
	}

	@Test
	void aRefusedPostWithoutIdempotencyKeyIsNotRetriedAndSaysSo() {
		// another service of the same address spends the budget; this client has seen
		// nothing yet, so it sends its POST and is refused
		assertThat(client().post().uri("/v1/notifications/send").retrieve().toBodilessEntity().getStatusCode().value())
			.isEqualTo(200);
		RestClient client = client();
		RateLimitedException refused = catchThrowableOfType(RateLimitedException.class,
				() -> client.post().uri("/v1/notifications/send").retrieve().toBodilessEntity());
		assertThat(refused.status()).isEqualTo(429);
		assertThat(refused.safeToRetry()).isFalse();
		assertThat(refused.retryAfter()).isGreaterThan(Duration.ofMinutes(59));
		assertThat(refused.problem().scope()).isEqualTo("ip");
		assertThat(refused.getMessage()).contains("POST is not retried without an Idempotency-Key");
		assertThat(this.onTheWire).as("one request each, no retry").containsExactly(200, 429);
		// having seen the budget spent for an hour, the client sends nothing more until
		// then
		RateLimitedException notSent = catchThrowableOfType(RateLimitedException.class,
				() -> client.get().uri("/v1/notifications/send").retrieve().toBodilessEntity());
		assertThat(notSent.attempts()).isZero();
		assertThat(this.onTheWire).hasSize(2);
	}

}
