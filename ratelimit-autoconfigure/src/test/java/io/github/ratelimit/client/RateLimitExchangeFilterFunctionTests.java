package io.github.ratelimit.client;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.web.reactive.function.client.ClientRequest;
import org.springframework.web.reactive.function.client.ClientResponse;
import org.springframework.web.reactive.function.client.ExchangeFunction;
import org.springframework.web.reactive.function.client.WebClient;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import reactor.test.StepVerifier;
import reactor.test.scheduler.VirtualTimeScheduler;

import io.github.ratelimit.behaviour.BlockingCallDetector;
import io.github.ratelimit.client.ScriptedServer.Reply;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The WebClient filter on Reactor's time: a retry comes after the wait on the scheduler
 * (virtual time, so nothing is waited), the refused response's body is released first,
 * and over a real connection nothing the filter does blocks a non-blocking thread.
 */
class RateLimitExchangeFilterFunctionTests {

	private static final ClientRequest GET = ClientRequest
		.create(HttpMethod.GET, URI.create("http://api.example.com/orders"))
		.build();

	@BeforeAll
	static void installBlockHound() {
		BlockingCallDetector.install();
	}

	@Test
	void retriesOnlyOnceTheWaitHasPassedOnTheScheduler() {
		VirtualTimeScheduler time = VirtualTimeScheduler.create();
		AtomicInteger released = new AtomicInteger();
		Deque<ClientResponse> responses = new ArrayDeque<>();
		responses.add(response(429, released, "Retry-After", "8"));
		responses.add(response(200, released));
		ExchangeFunction exchange = (request) -> Mono.fromSupplier(responses::poll);
		RateLimitExchangeFilterFunction filter = new RateLimitExchangeFilterFunction(client(time), time);
		StepVerifier.withVirtualTime(() -> filter.filter(GET, exchange), () -> time, Long.MAX_VALUE)
			.expectSubscription()
			.then(() -> assertThat(released).as("the refusal's body, released before the wait").hasValue(1))
			.expectNoEvent(Duration.ofSeconds(8))
			.thenAwait(Duration.ofSeconds(1))
			.assertNext((response) -> assertThat(response.statusCode()).isEqualTo(HttpStatus.OK))
			.verifyComplete();
		assertThat(responses).isEmpty();
		// the response handed back keeps its body for the caller
		assertThat(released).hasValue(1);
	}

	@Test
	void failsWithTheExceptionAndReleasesTheBodyWhenItGivesUp() {
		VirtualTimeScheduler time = VirtualTimeScheduler.create();
		AtomicInteger released = new AtomicInteger();
		ClientRequest post = ClientRequest.create(HttpMethod.POST, URI.create("http://api.example.com/orders")).build();
		ExchangeFunction exchange = (request) -> Mono.just(response(429, released, "Retry-After", "8"));
		StepVerifier
			.withVirtualTime(() -> new RateLimitExchangeFilterFunction(client(time), time).filter(post, exchange),
					() -> time, Long.MAX_VALUE)
			.expectErrorSatisfies((error) -> assertThat(error).isInstanceOfSatisfying(RateLimitedException.class,
					(refused) -> assertThat(refused.safeToRetry()).isFalse()))
			.verify();
		assertThat(released).hasValue(1);
	}

	@Test
	void aTestOfAHalfOpenBreakerThatFailsLetsTheNextRequestTest() {
		VirtualTimeScheduler time = VirtualTimeScheduler.create();
		AtomicInteger released = new AtomicInteger();
		RateLimitClient client = client(time,
				ClientRetrySettings.DEFAULTS.withMaxAttempts(1).withBreaker(1, Duration.ofSeconds(30)));
		RateLimitExchangeFilterFunction filter = new RateLimitExchangeFilterFunction(client, time);
		StepVerifier.create(filter.filter(GET, (request) -> Mono.just(response(429, released))))
			.expectError(RateLimitedException.class)
			.verify();
		time.advanceTimeBy(Duration.ofSeconds(30));
		StepVerifier.create(filter.filter(GET, (request) -> Mono.error(new IOException("Connection refused"))))
			.expectError(IOException.class)
			.verify();

		StepVerifier.create(filter.filter(GET, (request) -> Mono.just(response(200, released))))
			.assertNext((response) -> assertThat(response.statusCode()).as("sent as the next test, not held back")
				.isEqualTo(HttpStatus.OK))
			.verifyComplete();
	}

	@Test
	void blocksNoThreadOverARealConnection() throws IOException {
		try (ScriptedServer server = new ScriptedServer()) {
			// a refusal that asks for a short wait (plus jitter on the parallel
			// scheduler), a
			// success, then a refusal of a POST the client gives up on, its problem body
			// read
			server.then(Reply.status(429).header("Retry-After", "0"))
				.then(Reply.status(200).header("RateLimit", "\"default\";r=5;t=1"))
				.then(Reply.status(429)
					.header("Retry-After", "0")
					.body("application/problem+json", "{\"scope\":\"org\",\"request_id\":\"r-1\"}"));
			RateLimitClient client = new RateLimitClient(ClientRetrySettings.DEFAULTS.withJitter(Duration.ofMillis(50)),
					Clock.systemUTC(), new SplittableRandom(22), ClientEvents.NONE);
			WebClient web = WebClient.builder()
				.filter(new RateLimitExchangeFilterFunction(client, Schedulers.parallel()))
				.build();
			int mark = BlockingCallDetector.mark();
			Mono<Integer> get = web.get()
				.uri(server.uri("/orders"))
				.exchangeToMono((response) -> response.releaseBody().thenReturn(response.statusCode().value()));
			StepVerifier.create(get).expectNext(200).expectComplete().verify(Duration.ofSeconds(10));
			Mono<Integer> post = web.post()
				.uri(server.uri("/orders"))
				.bodyValue("{}")
				.exchangeToMono((response) -> response.releaseBody().thenReturn(response.statusCode().value()));
			StepVerifier.create(post)
				.expectErrorSatisfies((error) -> assertThat(error).isInstanceOfSatisfying(RateLimitedException.class,
						(refused) -> assertThat(refused.problem().requestId()).isEqualTo("r-1")))
				.verify(Duration.ofSeconds(10));
			assertThat(server.received()).hasSize(3);
			assertThat(BlockingCallDetector.caughtSince(mark)).as("blocking calls on non-blocking threads").isEmpty();
		}
	}

	@Test
	void wouldCatchABlockingCallInTheSameChain() throws IOException {
		// the check above can fail: a filter after ours that sleeps on the event loop is
		// caught
		try (ScriptedServer server = new ScriptedServer()) {
			RateLimitClient client = new RateLimitClient(ClientRetrySettings.DEFAULTS);
			WebClient web = WebClient.builder()
				.filter(new RateLimitExchangeFilterFunction(client))
				.filter((request, next) -> next.exchange(request).doOnNext((response) -> sleep()))
				.build();
			int mark = BlockingCallDetector.mark();
			web.get()
				.uri(server.uri("/orders"))
				.exchangeToMono((response) -> response.releaseBody().thenReturn(1))
				.onErrorResume((ex) -> Mono.just(0))
				.block(Duration.ofSeconds(10));
			assertThat(BlockingCallDetector.caughtSince(mark)).isNotEmpty();
			BlockingCallDetector.acknowledge();
		}
	}

	private static void sleep() {
		try {
			TimeUnit.MILLISECONDS.sleep(1);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private static RateLimitClient client(VirtualTimeScheduler time) {
		return client(time, ClientRetrySettings.DEFAULTS);
	}

	private static RateLimitClient client(VirtualTimeScheduler time, ClientRetrySettings settings) {
		Clock clock = new Clock() {

			@Override
			public Instant instant() {
				return Instant.ofEpochMilli(time.now(TimeUnit.MILLISECONDS));
			}

			@Override
			public ZoneId getZone() {
				return ZoneOffset.UTC;
			}

			@Override
			public Clock withZone(ZoneId zone) {
				return this;
			}

		};
		return new RateLimitClient(settings, clock, new SplittableRandom(22), ClientEvents.NONE);
	}

	private static ClientResponse response(int status, AtomicInteger released, String... headers) {
		ClientResponse.Builder response = ClientResponse.create(HttpStatus.valueOf(status));
		for (int i = 0; i < headers.length; i += 2) {
			response.header(headers[i], headers[i + 1]);
		}
		return response.body(Flux.defer(() -> {
			released.incrementAndGet();
			return Flux.just(DefaultDataBufferFactory.sharedInstance.wrap("{}".getBytes(StandardCharsets.UTF_8)));
		})).build();
	}

}
