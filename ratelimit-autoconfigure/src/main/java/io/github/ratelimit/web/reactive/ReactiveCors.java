package io.github.ratelimit.web.reactive;

import java.util.List;
import java.util.function.Supplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.util.Assert;
import org.springframework.web.cors.CorsConfiguration;
import org.springframework.web.cors.reactive.CorsConfigurationSource;
import org.springframework.web.cors.reactive.CorsProcessor;
import org.springframework.web.cors.reactive.CorsUtils;
import org.springframework.web.cors.reactive.DefaultCorsProcessor;
import org.springframework.web.reactive.HandlerMapping;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import io.github.ratelimit.web.ExposedHeaders;

/**
 * CORS for the rate-limit filters on WebFlux, the twin of the servlet support. They run
 * before the application's CORS handling (the handler mappings, a {@code CorsWebFilter}
 * bean, often Spring Security's filter chain), so:
 * <ul>
 * <li>a refusal of a cross-origin request is given the CORS headers the application would
 * have sent ({@link #applyToRefusal}): those of the first of the application's
 * {@code CorsWebFilter} beans, {@link CorsConfigurationSource} beans (what Spring
 * Security's {@code cors()} uses) and handler mappings ({@code addCorsMappings},
 * {@code @CrossOrigin}, router functions) to have them;</li>
 * <li>a response whose origin is allowed lists our headers in
 * {@code Access-Control-Expose-Headers}, just before it is committed
 * ({@link #expose});</li>
 * <li>a preflight is neither charged nor refused by limits ({@link #isPreFlight}).</li>
 * </ul>
 * A request without an {@code Origin} header, or from its own origin, is left alone.
 */
public final class ReactiveCors {

	private static final Logger logger = LoggerFactory.getLogger(ReactiveCors.class);

	private static final String EXPOSING_ATTRIBUTE = ReactiveCors.class.getName() + ".exposing";

	// the application's CORS filters run over a refusal, and stop there
	private static final WebFilterChain END = (exchange) -> Mono.empty();

	private final ExposedHeaders exposed;

	private final Supplier<List<WebFilter>> corsFilters;

	private final Supplier<List<CorsConfigurationSource>> sources;

	private final Supplier<List<HandlerMapping>> handlerMappings;

	private final CorsProcessor processor = new DefaultCorsProcessor();

	/**
	 * Creates the CORS support of the filters.
	 * @param exposed our headers, exposed to scripts
	 * @param corsFilters the application's CORS filters (such as {@code CorsWebFilter}
	 * beans), asked for by {@link #prepare()} or at the first refusal
	 * @param sources the application's CORS configuration sources, asked for by
	 * {@link #prepare()} or at the first refusal
	 * @param handlerMappings the dispatcher's handler mappings, in order, asked for by
	 * {@link #prepare()} or at the first refusal
	 */
	public ReactiveCors(ExposedHeaders exposed, Supplier<List<WebFilter>> corsFilters,
			Supplier<List<CorsConfigurationSource>> sources, Supplier<List<HandlerMapping>> handlerMappings) {
		Assert.notNull(exposed, "'exposed' must not be null");
		Assert.notNull(corsFilters, "'corsFilters' must not be null");
		Assert.notNull(sources, "'sources' must not be null");
		Assert.notNull(handlerMappings, "'handlerMappings' must not be null");
		this.exposed = exposed;
		this.corsFilters = corsFilters;
		this.sources = sources;
		this.handlerMappings = handlerMappings;
	}

	/**
	 * CORS support that knows none of the application's CORS configuration: refusals
	 * carry CORS headers only when the application's CORS handling ran before the
	 * refusing filter.
	 * @param exposed our headers, exposed to scripts
	 * @return the support
	 */
	public static ReactiveCors exposingOnly(ExposedHeaders exposed) {
		return new ReactiveCors(exposed, List::of, List::of, List::of);
	}

	/**
	 * Looks up the application's CORS filters, sources and handler mappings now, once
	 * every bean exists, so that the first cross-origin refusals, on event loops, find
	 * them resolved instead of racing to look them up (a lookup takes a lock).
	 */
	public void prepare() {
		this.corsFilters.get();
		this.sources.get();
		this.handlerMappings.get();
	}

	/**
	 * Whether the request is a CORS preflight, which limits neither charge nor refuse.
	 * @param request the request
	 * @return whether it is a preflight
	 */
	public static boolean isPreFlight(ServerHttpRequest request) {
		return CorsUtils.isPreFlightRequest(request);
	}

	/**
	 * Makes the response of a cross-origin request expose our headers if, when it is
	 * committed, the application allowed the origin.
	 * @param exchange the exchange
	 */
	public void expose(ServerWebExchange exchange) {
		if (isCors(exchange.getRequest()) && !isPreFlight(exchange.getRequest())) {
			exposeWhenAllowed(exchange);
		}
	}

	/**
	 * Gives a refusal of a cross-origin request the CORS headers the application would
	 * have sent, our headers exposed. An origin the application does not allow gets none.
	 * The refusal's status is kept.
	 * @param exchange the refused exchange, before its body is written
	 * @return completes when the headers are there
	 */
	public Mono<Void> applyToRefusal(ServerWebExchange exchange) {
		if (!isCors(exchange.getRequest())) {
			return Mono.empty();
		}
		exposeWhenAllowed(exchange);
		ServerHttpResponse response = exchange.getResponse();
		if (applied(response)) {
			// the application's CORS handling ran before the refusing filter
			return Mono.empty();
		}
		// an origin the application rejects is answered 403 by its CORS handling: the
		// refusal keeps its own status
		HttpStatusCode status = response.getStatusCode();
		return Flux.fromIterable(this.corsFilters.get())
			.concatMap((filter) -> applied(response) ? Mono.<Void>empty() : filter.filter(exchange, END))
			.then(Mono.defer(() -> (applied(response) || fromSources(exchange)) ? Mono.<Void>empty()
					: fromHandlerMappings(exchange)))
			.onErrorResume((ex) -> {
				// the refusal goes out all the same, without CORS headers
				logger.warn("Could not apply the application's CORS configuration to a rate-limit refusal", ex);
				return Mono.empty();
			})
			.then(Mono.fromRunnable(() -> response.setStatusCode(status)));
	}

	/** Whether a source had a configuration for the request, now applied. */
	private boolean fromSources(ServerWebExchange exchange) {
		for (CorsConfigurationSource source : this.sources.get()) {
			CorsConfiguration configuration = source.getCorsConfiguration(exchange);
			if (configuration != null) {
				this.processor.process(configuration, exchange);
				return true;
			}
		}
		return false;
	}

	// a handler mapping applies the CORS configuration of the handler it finds
	private Mono<Void> fromHandlerMappings(ServerWebExchange exchange) {
		return Flux.fromIterable(this.handlerMappings.get())
			.concatMap((mapping) -> mapping.getHandler(exchange).onErrorResume((ex) -> Mono.empty()))
			.next()
			.then();
	}

	private void exposeWhenAllowed(ServerWebExchange exchange) {
		if (exchange.getAttributes().putIfAbsent(EXPOSING_ATTRIBUTE, Boolean.TRUE) != null) {
			return;
		}
		ServerHttpResponse response = exchange.getResponse();
		response.beforeCommit(() -> Mono.fromRunnable(() -> {
			HttpHeaders headers = response.getHeaders();
			if (headers.getFirst(ExposedHeaders.ALLOW_ORIGIN) == null) {
				return;
			}
			List<String> present = headers.get(ExposedHeaders.EXPOSE_HEADERS);
			String missing = this.exposed.missingFrom(present);
			if (missing != null) {
				headers.set(ExposedHeaders.EXPOSE_HEADERS,
						(present != null) ? String.join(", ", present) + ", " + missing : missing);
			}
		}));
	}

	private static boolean applied(ServerHttpResponse response) {
		return response.getHeaders().getFirst(ExposedHeaders.ALLOW_ORIGIN) != null;
	}

	private static boolean isCors(ServerHttpRequest request) {
		if (request.getHeaders().getFirst(HttpHeaders.ORIGIN) == null) {
			return false;
		}
		try {
			return CorsUtils.isCorsRequest(request);
		}
		catch (IllegalArgumentException ex) {
			// a malformed origin: no CORS
			return false;
		}
	}

}
