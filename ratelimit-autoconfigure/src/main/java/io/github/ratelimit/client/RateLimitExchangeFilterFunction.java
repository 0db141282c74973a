package io.github.ratelimit.client;

import java.time.Duration;

import org.jspecify.annotations.Nullable;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.util.Assert;
import org.springframework.web.reactive.function.BodyExtractors;
import org.springframework.web.reactive.function.client.ClientRequest;
import org.springframework.web.reactive.function.client.ClientResponse;
import org.springframework.web.reactive.function.client.ExchangeFilterFunction;
import org.springframework.web.reactive.function.client.ExchangeFunction;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * Makes {@code WebClient} calls honour the rate limits of the APIs they call: holds a
 * request while its host's policy is exhausted, waits what a 429 (or a 503 with
 * {@code Retry-After}) says and sends the request again, and fails with a
 * {@link RateLimitedException} when it gives up. Every other response is handed back
 * untouched.
 * <p>
 * Non-blocking: waits are {@code Mono.delay} on a {@link Scheduler} (Reactor's parallel
 * one unless given), never a sleeping thread. A retry subscribes to the request again, so
 * its body must be one that can be written twice ({@code bodyValue}, or a publisher that
 * can be subscribed to again). Added by hand:
 * {@code WebClient.builder().filter(new RateLimitExchangeFilterFunction(client))}; the
 * filters after it run again for every attempt.
 */
public final class RateLimitExchangeFilterFunction implements ExchangeFilterFunction {

	/** Read one byte past the largest problem body parsed, so an oversized one shows. */
	private static final int PROBLEM_READ_LIMIT = ProblemDetails.MAX_BODY_BYTES + 1;

	private static final int TOO_MANY_REQUESTS = 429;

	private static final int SERVICE_UNAVAILABLE = 503;

	private final RateLimitClient client;

	private final Scheduler scheduler;

	/**
	 * Creates a filter that waits on Reactor's parallel scheduler.
	 * @param client the client that decides, shared by every interceptor and filter of
	 * the application
	 */
	public RateLimitExchangeFilterFunction(RateLimitClient client) {
		this(client, Schedulers.parallel());
	}

	/**
	 * Creates a filter that waits on the given scheduler (a virtual-time one in tests).
	 * @param client the client that decides
	 * @param scheduler where the waits are timed
	 */
	public RateLimitExchangeFilterFunction(RateLimitClient client, Scheduler scheduler) {
		Assert.notNull(client, "'client' must not be null");
		Assert.notNull(scheduler, "'scheduler' must not be null");
		this.client = client;
		this.scheduler = scheduler;
	}

	@Override
	public Mono<ClientResponse> filter(ClientRequest request, ExchangeFunction next) {
		return Mono.defer(
				() -> send(
						this.client.start(request.method().name(), request.url(),
								request.headers()
									.containsHeader(RateLimitClientHttpRequestInterceptor.IDEMPOTENCY_KEY)),
						request, next));
	}

	private Mono<ClientResponse> send(ClientCall call, ClientRequest request, ExchangeFunction next) {
		Duration hold;
		try {
			hold = call.beforeSend();
		}
		catch (RateLimitedException ex) {
			return Mono.error(ex);
		}
		// an exchange that ends without a response tells the breaker nothing
		Mono<ClientResponse> exchange = Mono.defer(() -> next.exchange(request))
			.doOnError((ex) -> call.sendFailed())
			.doOnCancel(call::sendFailed);
		return after(hold, exchange).flatMap((response) -> decide(call, request, next, response));
	}

	private Mono<ClientResponse> decide(ClientCall call, ClientRequest request, ExchangeFunction next,
			ClientResponse response) {
		int status = response.statusCode().value();
		HeaderLookup headers = response.headers()::header;
		if (!mayGiveUp(status, headers)) {
			return decided(call, request, next, response, null);
		}
		// the client may give up on it, and then wants the problem body: no blocking read
		// on demand here, so a bounded read first (a refusal's body is small)
		return DataBufferUtils.join(response.body(BodyExtractors.toDataBuffers()), PROBLEM_READ_LIMIT)
			.map(RateLimitExchangeFilterFunction::bytes)
			.onErrorResume((ex) -> Mono.just(new byte[0]))
			.defaultIfEmpty(new byte[0])
			.flatMap((body) -> decided(call, request, next, response, body));
	}

	private Mono<ClientResponse> decided(ClientCall call, ClientRequest request, ExchangeFunction next,
			ClientResponse response, byte @Nullable [] body) {
		ClientDecision decision = call.afterResponse(response.statusCode().value(), response.headers()::header,
				() -> (body != null) ? body : new byte[0]);
		if (decision instanceof ClientDecision.Retry retry) {
			Mono<Void> released = (body != null) ? Mono.empty() : response.releaseBody();
			return released.then(after(retry.delay(), Mono.defer(() -> send(call, request, next))));
		}
		if (decision instanceof ClientDecision.GiveUp giveUp) {
			Mono<Void> released = (body != null) ? Mono.empty() : response.releaseBody();
			return released.then(Mono.error(giveUp.exception()));
		}
		if (body != null) {
			// handed back after all: with the body that was read (the original is spent)
			return Mono.just(response.mutate()
				.body((spent) -> Flux.just(DefaultDataBufferFactory.sharedInstance.wrap(body)))
				.build());
		}
		return Mono.just(response);
	}

	private Mono<ClientResponse> after(Duration wait, Mono<ClientResponse> then) {
		if (wait.isZero() || wait.isNegative()) {
			return then;
		}
		return Mono.delay(wait, this.scheduler).then(then);
	}

	// the statuses a client gives up on (ClientCall's rules): 429, and 503 with
	// Retry-After
	private static boolean mayGiveUp(int status, HeaderLookup headers) {
		return status == TOO_MANY_REQUESTS
				|| (status == SERVICE_UNAVAILABLE && !headers.values(HttpHeaders.RETRY_AFTER).isEmpty());
	}

	private static byte[] bytes(DataBuffer buffer) {
		try {
			byte[] bytes = new byte[buffer.readableByteCount()];
			buffer.read(bytes);
			return bytes;
		}
		finally {
			DataBufferUtils.release(buffer);
		}
	}

}
