package io.github.ratelimit.web.reactive;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.PathContainer;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.util.Assert;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import org.springframework.web.util.pattern.PathPattern;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

import io.github.ratelimit.core.status.CallerStatus;
import io.github.ratelimit.core.status.StatusAnswer;
import io.github.ratelimit.http.CallerStatusBody;
import io.github.ratelimit.http.RateLimitHeaders;
import io.github.ratelimit.http.RejectionBodyWriter;
import io.github.ratelimit.http.RequestIds;
import io.github.ratelimit.web.ExposedHeaders;

/**
 * The status endpoint for WebFlux, the twin of the servlet filter: answers {@code GET}
 * (and {@code HEAD}) of the status path with the caller's own standing, after Spring
 * Security's {@code WebFilterChainProxy} (the caller comes from
 * {@link ServerWebExchange#getPrincipal()}) and before the
 * {@link ReactiveRateLimitFilter}, which the status request never reaches. Reading the
 * store may block (an operator's read of Redis), so it runs on {@code scheduler}
 * ({@link Schedulers#boundedElastic()} by default), never on an event loop; the answer is
 * written from the connection's own thread again ({@link ConnectionThreads}).
 * <p>
 * {@code OPTIONS} (a CORS preflight) goes on to the application; other methods are
 * answered 405. Anything unexpected answers 503: never a 500.
 */
public final class ReactiveRateLimitStatusFilter implements WebFilter, Ordered {

	private static final Logger logger = LoggerFactory.getLogger(ReactiveRateLimitStatusFilter.class);

	private final CallerStatus status;

	private final PathPattern path;

	private final RateLimitHeaders headers;

	private final RejectionBodyWriter bodyWriter;

	private final ReactiveCors cors;

	private final int order;

	private final Scheduler scheduler;

	private final ConnectionThreads threads = new ConnectionThreads(Schedulers.immediate());

	/**
	 * Creates the filter, reading the store on {@link Schedulers#boundedElastic()}.
	 * @param status answers callers
	 * @param path the status path, within the application
	 * @param headers writes the headers of a refusal
	 * @param bodyWriter writes the body of a refusal
	 * @param order the filter's order
	 */
	public ReactiveRateLimitStatusFilter(CallerStatus status, PathPattern path, RateLimitHeaders headers,
			RejectionBodyWriter bodyWriter, int order) {
		this(status, path, headers, bodyWriter, order, Schedulers.boundedElastic());
	}

	/**
	 * Creates the filter.
	 * @param status answers callers
	 * @param path the status path, within the application
	 * @param headers writes the headers of a refusal
	 * @param bodyWriter writes the body of a refusal
	 * @param order the filter's order
	 * @param scheduler where the store is read (it may block)
	 */
	public ReactiveRateLimitStatusFilter(CallerStatus status, PathPattern path, RateLimitHeaders headers,
			RejectionBodyWriter bodyWriter, int order, Scheduler scheduler) {
		this(status, path, headers, bodyWriter, order, scheduler,
				ReactiveCors.exposingOnly(ExposedHeaders.of(headers)));
	}

	/**
	 * Creates the filter.
	 * @param status answers callers
	 * @param path the status path, within the application
	 * @param headers writes the headers of a refusal
	 * @param bodyWriter writes the body of a refusal
	 * @param order the filter's order
	 * @param scheduler where the store is read (it may block)
	 * @param cors gives a cross-origin answer the application's CORS headers
	 */
	public ReactiveRateLimitStatusFilter(CallerStatus status, PathPattern path, RateLimitHeaders headers,
			RejectionBodyWriter bodyWriter, int order, Scheduler scheduler, ReactiveCors cors) {
		Assert.notNull(cors, "'cors' must not be null");
		Assert.notNull(status, "'status' must not be null");
		Assert.notNull(path, "'path' must not be null");
		Assert.notNull(headers, "'headers' must not be null");
		Assert.notNull(bodyWriter, "'bodyWriter' must not be null");
		Assert.notNull(scheduler, "'scheduler' must not be null");
		this.status = status;
		this.path = path;
		this.headers = headers;
		this.bodyWriter = bodyWriter;
		this.order = order;
		this.scheduler = scheduler;
		this.cors = cors;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		ServerHttpRequest request = exchange.getRequest();
		PathContainer path = request.getPath().pathWithinApplication();
		HttpMethod method = request.getMethod();
		if (!this.path.matches(path) || HttpMethod.OPTIONS.equals(method)) {
			return chain.filter(exchange);
		}
		ServerHttpResponse response = exchange.getResponse();
		response.getHeaders().setCacheControl("no-store");
		if (!HttpMethod.GET.equals(method) && !HttpMethod.HEAD.equals(method)) {
			response.getHeaders().set(HttpHeaders.ALLOW, "GET, HEAD");
			response.setStatusCode(HttpStatus.METHOD_NOT_ALLOWED);
			return response.setComplete();
		}
		return ReactivePrincipals.of(exchange)
			.publishOn(this.scheduler)
			.map((principal) -> this.status
				.status(new ReactiveClientRequest(request, path.value(), principal.orElse(null))))
			// answered from the connection's own thread (see ConnectionThreads)
			.publishOn(this.threads.of(request))
			.flatMap((answer) -> respond(exchange, answer, HttpMethod.HEAD.equals(method)))
			.onErrorResume((ex) -> {
				logger.error("Rate-limit status failed; answering 503", ex);
				response.setStatusCode(HttpStatus.SERVICE_UNAVAILABLE);
				return response.setComplete();
			});
	}

	private Mono<Void> respond(ServerWebExchange exchange, StatusAnswer answer, boolean head) {
		ServerHttpResponse response = exchange.getResponse();
		byte[] body;
		if (answer instanceof StatusAnswer.Refused refused) {
			String requestId = RequestIds
				.sanitizeOrGenerate(exchange.getRequest().getHeaders().getFirst(RequestIds.HEADER));
			response.getHeaders().set(RequestIds.HEADER, requestId);
			this.headers.write(refused.refusal(), response.getHeaders()::set);
			body = ReactiveRefusals.prepare(response, refused.refusal(), requestId, this.bodyWriter);
			return ReactiveRefusals.write(exchange, body, this.cors);
		}
		body = CallerStatusBody.write(((StatusAnswer.Known) answer).standing());
		response.setStatusCode(HttpStatus.OK);
		response.getHeaders().setContentType(MediaType.parseMediaType(CallerStatusBody.CONTENT_TYPE));
		response.getHeaders().setContentLength(body.length);
		// answered here, before any handler: the application's CORS headers as on a
		// refusal
		Mono<Void> cors = this.cors.applyToRefusal(exchange);
		if (head) {
			return cors.then(response.setComplete());
		}
		return cors.then(response.writeWith(Mono.fromSupplier(() -> (DataBuffer) response.bufferFactory().wrap(body))));
	}

	@Override
	public int getOrder() {
		return this.order;
	}

}
