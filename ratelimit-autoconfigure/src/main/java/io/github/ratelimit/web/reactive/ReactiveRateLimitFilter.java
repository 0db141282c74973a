package io.github.ratelimit.web.reactive;

import java.security.Principal;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.server.PathContainer;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.util.Assert;
import org.springframework.web.ErrorResponse;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

import io.github.ratelimit.core.Completion;
import io.github.ratelimit.core.Decision;
import io.github.ratelimit.core.DecisionListener;
import io.github.ratelimit.core.RateLimiter;
import io.github.ratelimit.http.RateLimitHeaders;
import io.github.ratelimit.http.RejectionBodyWriter;
import io.github.ratelimit.http.RequestIds;
import io.github.ratelimit.policy.Classification;
import io.github.ratelimit.web.EndpointClassifier;
import io.github.ratelimit.web.ExposedHeaders;
import io.github.ratelimit.web.GateDecisions;
import io.github.ratelimit.web.RequestLifecycle;

/**
 * The rate limiter for WebFlux, the twin of the servlet filter: classifies the request,
 * lets the {@link RateLimiter} decide through the store's asynchronous API, writes the
 * rate-limit headers, and answers 429/403/503 with a problem body or lets the request
 * through. Nothing here blocks.
 * <p>
 * The caller's identity comes from {@link ServerWebExchange#getPrincipal()}: Spring
 * Security's {@code Authentication} when its filter chain ran first (the default order
 * puts this filter right after it). The request id is an exchange attribute,
 * {@link #REQUEST_ID_ATTRIBUTE}; unlike on the servlet stack it is not put in the logging
 * MDC, which is bound to threads.
 * <p>
 * A store that answers asynchronously (Redis) completes its decision on one of its own
 * threads (a Lettuce I/O thread, or a timer thread on a timeout). The rest of the chain,
 * the application included, must not run there: it would hold up every other Redis reply,
 * or the JVM-wide timer. So the chain continues on the event loop of the request's
 * connection on Reactor Netty, where it would have run without the limiter (see
 * {@link ConnectionThreads} for why not a shared pool), and on {@code scheduler} (by
 * default {@link Schedulers#parallel()}) on other servers; a decision that is already
 * made (memory store, open circuit breaker) continues on the calling thread without a
 * hop.
 * <p>
 * An admitted request that must wait for its tokens ({@code max-wait}) waits on a timer
 * of that same thread, never blocking it, and continues there. It holds what its decision
 * took (a waiting slot, concurrency permits) in a {@link RequestLifecycle} that ends when
 * the rest of the chain completes, fails or is cancelled (a client that goes away),
 * during the wait as well. Limits that count only some responses are settled when the
 * response commits, before the client can see it, or else when it ends.
 * <p>
 * Anything unexpected inside the limiter admits the request: the limiter never answers
 * 500. A failing {@link RejectionBodyWriter} still refuses the request, with an empty
 * body. Cancellation cancels nothing in the store: a decision under way completes, and
 * what it took is given back at once.
 */
public final class ReactiveRateLimitFilter implements WebFilter, Ordered {

	/** The exchange attribute holding the request id, a {@code String}. */
	public static final String REQUEST_ID_ATTRIBUTE = ReactiveRateLimitFilter.class.getName() + ".requestId";

	private static final Logger logger = LoggerFactory.getLogger(ReactiveRateLimitFilter.class);

	private static final String FAILED = "Rate limiter failed; admitting the request";

	private final RateLimiter limiter;

	private final EndpointClassifier classifier;

	private final RateLimitHeaders headers;

	private final RejectionBodyWriter bodyWriter;

	private final DecisionListener listener;

	private final int order;

	private final ConnectionThreads threads;

	private final ReactiveCors cors;

	/**
	 * Creates a filter that continues on {@link Schedulers#parallel()} after an
	 * asynchronous decision.
	 * @param limiter decides
	 * @param classifier classifies requests
	 * @param headers writes the rate-limit headers
	 * @param bodyWriter writes the body of refusals
	 * @param listener told of every decision
	 * @param order the filter's order
	 */
	public ReactiveRateLimitFilter(RateLimiter limiter, EndpointClassifier classifier, RateLimitHeaders headers,
			RejectionBodyWriter bodyWriter, DecisionListener listener, int order) {
		this(limiter, classifier, headers, bodyWriter, listener, order, Schedulers.parallel());
	}

	/**
	 * Creates a filter.
	 * @param limiter decides
	 * @param classifier classifies requests
	 * @param headers writes the rate-limit headers
	 * @param bodyWriter writes the body of refusals
	 * @param listener told of every decision
	 * @param order the filter's order
	 * @param scheduler where the chain continues after a decision that completed on the
	 * store's thread, and the timer of requests that wait for their tokens, on servers
	 * other than Reactor Netty (it must support delays, as Reactor's own schedulers do)
	 */
	public ReactiveRateLimitFilter(RateLimiter limiter, EndpointClassifier classifier, RateLimitHeaders headers,
			RejectionBodyWriter bodyWriter, DecisionListener listener, int order, Scheduler scheduler) {
		this(limiter, classifier, headers, bodyWriter, listener, order, scheduler,
				ReactiveCors.exposingOnly(ExposedHeaders.of(headers)));
	}

	/**
	 * Creates a filter with the application's CORS configuration.
	 * @param limiter decides
	 * @param classifier classifies requests
	 * @param headers writes the rate-limit headers
	 * @param bodyWriter writes the body of refusals
	 * @param listener told of every decision
	 * @param order the filter's order
	 * @param scheduler where the chain continues after a decision that completed on the
	 * store's thread, and the timer of requests that wait for their tokens, on servers
	 * other than Reactor Netty
	 * @param cors gives refusals the application's CORS headers, exposes ours and tells
	 * preflights, which are never charged
	 */
	public ReactiveRateLimitFilter(RateLimiter limiter, EndpointClassifier classifier, RateLimitHeaders headers,
			RejectionBodyWriter bodyWriter, DecisionListener listener, int order, Scheduler scheduler,
			ReactiveCors cors) {
		Assert.notNull(limiter, "'limiter' must not be null");
		Assert.notNull(classifier, "'classifier' must not be null");
		Assert.notNull(headers, "'headers' must not be null");
		Assert.notNull(bodyWriter, "'bodyWriter' must not be null");
		Assert.notNull(listener, "'listener' must not be null");
		Assert.notNull(scheduler, "'scheduler' must not be null");
		Assert.notNull(cors, "'cors' must not be null");
		this.limiter = limiter;
		this.classifier = classifier;
		this.headers = headers;
		this.bodyWriter = bodyWriter;
		this.listener = listener;
		this.order = order;
		this.threads = new ConnectionThreads(scheduler);
		this.cors = cors;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		ServerHttpRequest request = exchange.getRequest();
		String requestId = RequestIds.sanitizeOrGenerate(request.getHeaders().getFirst(RequestIds.HEADER));
		exchange.getResponse().getHeaders().set(RequestIds.HEADER, requestId);
		exchange.getAttributes().put(REQUEST_ID_ATTRIBUTE, requestId);
		this.cors.expose(exchange);
		PathContainer path;
		Classification classification;
		try {
			path = request.getPath().pathWithinApplication();
			classification = this.classifier.classify(request.getMethod().name(), path);
		}
		catch (RuntimeException ex) {
			logger.error(FAILED, ex);
			return chain.filter(exchange);
		}
		if (classification.excluded() || ReactiveCors.isPreFlight(request)) {
			return chain.filter(exchange);
		}
		return Mono.defer(() -> {
			long start = System.nanoTime();
			RequestLifecycle lifecycle = new RequestLifecycle(this.limiter.inFlight());
			// the final status settles limits that count only some responses; until the
			// chain runs, nothing ran
			AtomicInteger status = new AtomicInteger(Completion.NOT_RUN);
			return ReactivePrincipals.of(exchange)
				.flatMap((principal) -> decide(request, path.value(), principal.orElse(null), classification,
						decidedByGate(exchange), lifecycle))
				.map((decision) -> respond(exchange, decision, decidedByGate(exchange), requestId, start))
				.onErrorResume((ex) -> {
					logger.error(FAILED, ex);
					// what the decision took is given back now: the request goes on as if
					// no limit applied
					lifecycle.end();
					return Mono.just(Answer.PROCEED);
				})
				// outside the error handling above: an error of the application is not
				// the limiter's
				.flatMap((answer) -> (answer.refusal() != null)
						? ReactiveRefusals.write(exchange, answer.refusal(), this.cors)
						: proceed(exchange, chain, answer.waitMillis(), lifecycle, status))
				// completed, failed or cancelled (while deciding, waiting or in the
				// application)
				.doFinally((signal) -> lifecycle.end(status.get()));
		});
	}

	private Mono<Void> proceed(ServerWebExchange exchange, WebFilterChain chain, long waitMillis,
			RequestLifecycle lifecycle, AtomicInteger status) {
		if (waitMillis <= 0) {
			lifecycle.waitOver();
			return run(exchange, chain, lifecycle, status);
		}
		return Mono.delay(Duration.ofMillis(waitMillis), this.threads.of(exchange.getRequest())).then(Mono.defer(() -> {
			lifecycle.waitOver();
			return run(exchange, chain, lifecycle, status);
		}));
	}

	/**
	 * Runs the rest of the chain, noting the final status for limits that count by
	 * outcome: the response's when the chain completes, the error's (500 when it names
	 * none) when it fails, and none when it is cancelled (a client that went away stays
	 * counted).
	 */
	private static Mono<Void> run(ServerWebExchange exchange, WebFilterChain chain, RequestLifecycle lifecycle,
			AtomicInteger status) {
		status.set(Completion.UNKNOWN);
		if (!lifecycle.countsByOutcome()) {
			return chain.filter(exchange);
		}
		// the status at commit is the final one: settled then, before the client can see
		// the response
		ServerHttpResponse response = exchange.getResponse();
		response.beforeCommit(() -> Mono.fromRunnable(() -> lifecycle.committed(statusOf(response))));
		return chain.filter(exchange)
			.doOnSuccess((ignored) -> status.set(statusOf(response)))
			.doOnError((ex) -> status.set((ex instanceof ErrorResponse error) ? error.getStatusCode().value() : 500));
	}

	/** The response's status; 200 when none was set. */
	static int statusOf(ServerHttpResponse response) {
		HttpStatusCode code = response.getStatusCode();
		return (code != null) ? code.value() : 200;
	}

	// the gate before authentication decided the client address's limits that count by
	// outcome: decided once
	private static @Nullable Decision decidedByGate(ServerWebExchange exchange) {
		return (exchange.getAttribute(ReactiveRateLimitGateFilter.OUTCOME_DECIDED_ATTRIBUTE) instanceof Decision gate)
				? gate : null;
	}

	private Mono<Decision> decide(ServerHttpRequest request, String path, @Nullable Principal principal,
			Classification classification, @Nullable Decision gate, RequestLifecycle lifecycle) {
		// told on the store's side of the future: a decision that arrives after a
		// cancellation is still told
		CompletableFuture<Decision> decision = this.limiter
			.decideAsync(new ReactiveClientRequest(request, path, principal), classification,
					(gate != null) ? RateLimiter.decidedLimits(gate) : Set.of())
			.thenApply((decided) -> {
				lifecycle.decided(decided);
				return decided;
			});
		if (decision.isDone()) {
			return Mono.fromFuture(decision);
		}
		// completes on the store's thread: hop off it before the application runs (see
		// the class comment)
		return Mono.fromFuture(decision, true).publishOn(this.threads.of(request));
	}

	/**
	 * Writes the headers of a decision and, for a refusal, the status and content type.
	 * @return the body of a refusal, or how long the admitted request waits before it
	 * goes on
	 */
	private Answer respond(ServerWebExchange exchange, Decision decision, @Nullable Decision gate, String requestId,
			long start) {
		ServerHttpResponse response = exchange.getResponse();
		this.headers.write(decision, GateDecisions.shown(gate, decision), response.getHeaders()::set);
		this.listener.onDecision(decision, System.nanoTime() - start);
		if (!(decision instanceof Decision.Refusal refusal)) {
			long waitMillis = (decision instanceof Decision.Allowed allowed) ? allowed.waitMillis() : 0;
			return (waitMillis > 0) ? new Answer(null, waitMillis) : Answer.PROCEED;
		}
		exchange.getAttributes().put(ReactiveRateLimitGateFilter.REFUSED_AFTER_ATTRIBUTE, Boolean.TRUE);
		HttpHeaders requestHeaders = exchange.getRequest().getHeaders();
		if (requestHeaders.getContentLength() > 0 || requestHeaders.containsHeader(HttpHeaders.TRANSFER_ENCODING)) {
			// the body was never read: the connection cannot be reused until it is, so
			// close it
			response.getHeaders().set(HttpHeaders.CONNECTION, "close");
		}
		return new Answer(ReactiveRefusals.prepare(response, refusal, requestId, this.bodyWriter), 0);
	}

	@Override
	public int getOrder() {
		return this.order;
	}

	/**
	 * What to do after the decision.
	 *
	 * @param refusal the body of a refusal, or {@code null} when the request goes on
	 * @param waitMillis how long the admitted request waits for its tokens first
	 */
	private record Answer(byte @Nullable [] refusal, long waitMillis) {

		static final Answer PROCEED = new Answer(null, 0);

	}

}
