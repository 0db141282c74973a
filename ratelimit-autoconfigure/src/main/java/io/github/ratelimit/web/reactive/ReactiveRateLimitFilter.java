package io.github.ratelimit.web.reactive;

import java.security.Principal;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.server.PathContainer;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.util.Assert;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Mono;

import io.github.ratelimit.core.Classification;
import io.github.ratelimit.core.Decision;
import io.github.ratelimit.core.DecisionListener;
import io.github.ratelimit.core.RateLimiter;
import io.github.ratelimit.http.RateLimitHeaders;
import io.github.ratelimit.http.RateLimitStatus;
import io.github.ratelimit.http.RejectionBodyWriter;
import io.github.ratelimit.http.RequestIds;
import io.github.ratelimit.web.EndpointClassifier;

/**
 * The rate limiter for WebFlux: the twin of the servlet filter, deciding without blocking (the store's
 * asynchronous API). Anything unexpected inside the limiter admits the request: never a 500.
 */
public final class ReactiveRateLimitFilter implements WebFilter, Ordered {

	/** The exchange attribute holding the request id. */
	public static final String REQUEST_ID_ATTRIBUTE = ReactiveRateLimitFilter.class.getName() + ".requestId";

	private static final Logger logger = LoggerFactory.getLogger(ReactiveRateLimitFilter.class);

	private final RateLimiter limiter;

	private final EndpointClassifier classifier;

	private final RateLimitHeaders headers;

	private final RejectionBodyWriter bodyWriter;

	private final DecisionListener listener;

	private final int order;

	public ReactiveRateLimitFilter(RateLimiter limiter, EndpointClassifier classifier, RateLimitHeaders headers,
			RejectionBodyWriter bodyWriter, DecisionListener listener, int order) {
		Assert.notNull(limiter, "'limiter' must not be null");
		Assert.notNull(classifier, "'classifier' must not be null");
		Assert.notNull(headers, "'headers' must not be null");
		Assert.notNull(bodyWriter, "'bodyWriter' must not be null");
		Assert.notNull(listener, "'listener' must not be null");
		this.limiter = limiter;
		this.classifier = classifier;
		this.headers = headers;
		this.bodyWriter = bodyWriter;
		this.listener = listener;
		this.order = order;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		ServerHttpRequest request = exchange.getRequest();
		ServerHttpResponse response = exchange.getResponse();
		String requestId = RequestIds.sanitizeOrGenerate(request.getHeaders().getFirst(RequestIds.HEADER));
		response.getHeaders().set(RequestIds.HEADER, requestId);
		exchange.getAttributes().put(REQUEST_ID_ATTRIBUTE, requestId);
		Classification classification;
		PathContainer path;
		try {
			path = request.getPath().pathWithinApplication();
			classification = this.classifier.classify(request.getMethod().name(), path);
		}
		catch (RuntimeException ex) {
			logger.error("Rate limiter failed; admitting the request", ex);
			return chain.filter(exchange);
		}
		if (classification.excluded()) {
			return chain.filter(exchange);
		}
		long start = System.nanoTime();
		return exchange.getPrincipal()
			.map(Optional::<Principal>of)
			.defaultIfEmpty(Optional.empty())
			.flatMap((principal) -> Mono.fromFuture(() -> this.limiter
				.decideAsync(new ReactiveClientRequest(request, path.value(), principal.orElse(null)), classification)))
			.map(Optional::of)
			.onErrorResume((ex) -> {
				logger.error("Rate limiter failed; admitting the request", ex);
				return Mono.just(Optional.empty());
			})
			.flatMap((decision) -> decision.isPresent() ? respond(exchange, chain, decision.get(), requestId, start)
					: chain.filter(exchange));
	}

	private Mono<Void> respond(ServerWebExchange exchange, WebFilterChain chain, Decision decision, String requestId,
			long start) {
		ServerHttpResponse response = exchange.getResponse();
		try {
			this.headers.write(decision, response.getHeaders()::set);
			this.listener.onDecision(decision, System.nanoTime() - start);
			if (decision.outcome().admits()) {
				return chain.filter(exchange);
			}
			byte[] body = this.bodyWriter.write(decision, requestId);
			response.setStatusCode(HttpStatusCode.valueOf(RateLimitStatus.of(decision.outcome()).code()));
			response.getHeaders().setContentType(MediaType.parseMediaType(this.bodyWriter.contentType()));
			response.getHeaders().setContentLength(body.length);
			return response.writeWith(Mono.fromSupplier(() -> response.bufferFactory().wrap(body)));
		}
		catch (RuntimeException ex) {
			logger.error("Rate limiter failed; admitting the request", ex);
			return chain.filter(exchange);
		}
	}

	@Override
	public int getOrder() {
		return this.order;
	}

}
