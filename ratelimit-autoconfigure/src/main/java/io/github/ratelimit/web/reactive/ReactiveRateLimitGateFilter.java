package io.github.ratelimit.web.reactive;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.server.PathContainer;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.util.Assert;
import org.springframework.web.ErrorResponse;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import org.springframework.web.util.pattern.PathPattern;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

import io.github.ratelimit.core.AddressGate;
import io.github.ratelimit.core.CheckScope;
import io.github.ratelimit.core.Completion;
import io.github.ratelimit.core.Decision;
import io.github.ratelimit.core.DecisionListener;
import io.github.ratelimit.core.LoginAttempt;
import io.github.ratelimit.core.RateLimiter;
import io.github.ratelimit.http.RateLimitHeaders;
import io.github.ratelimit.http.RejectionBodyWriter;
import io.github.ratelimit.http.RequestIds;
import io.github.ratelimit.policy.Classification;
import io.github.ratelimit.web.EndpointClassifier;
import io.github.ratelimit.web.ExposedHeaders;
import io.github.ratelimit.web.LoginAttempts;
import io.github.ratelimit.web.RequestLifecycle;

/**
 * The gate before authentication for WebFlux, the twin of the servlet gate: ordered
 * before Spring Security's {@code WebFilterChainProxy} (and working without Spring
 * Security), it refuses by the client address alone what the {@link AddressGate} refuses,
 * with the same status, headers and problem body as the {@link ReactiveRateLimitFilter}.
 * Nothing here blocks: the gate reads a local snapshot.
 * <p>
 * With a {@link RateLimiter}, the gate also decides the limits of the request that count
 * by outcome ({@link CheckScope#OUTCOME_COUNTED}) by the client address, through the
 * store's asynchronous API, and settles them with the final status when the response
 * commits, before the client can see it, or else when the rest of the chain completes,
 * fails or is cancelled: a 401 that Spring Security answers counts towards a
 * failures-only limit. The {@link ReactiveRateLimitFilter} then decides the rest
 * ({@link #OUTCOME_DECIDED_ATTRIBUTE}), the authenticated caller's outcome-counted limits
 * included. A request whose group has no such limit costs no store call here.
 * <p>
 * Paths in {@code openPaths} (the health probes) are never refused. Anything unexpected
 * lets the request through: the gate never answers 500.
 */
public final class ReactiveRateLimitGateFilter implements WebFilter, Ordered {

	/**
	 * The exchange attribute holding the gate's {@link Decision} of the request's
	 * outcome-counted limits: the {@link ReactiveRateLimitFilter} leaves them out
	 * ({@link RateLimiter#decidedLimits}) and shows them in its headers.
	 */
	public static final String OUTCOME_DECIDED_ATTRIBUTE = ReactiveRateLimitGateFilter.class.getName()
			+ ".outcomeDecided";

	/**
	 * The exchange attribute the {@link ReactiveRateLimitFilter} sets when it refuses a
	 * request the gate let through: a refusal of the limiter is not an outcome of the
	 * application, and gives the gate's reservation back.
	 */
	public static final String REFUSED_AFTER_ATTRIBUTE = ReactiveRateLimitGateFilter.class.getName() + ".refusedAfter";

	private static final Logger logger = LoggerFactory.getLogger(ReactiveRateLimitGateFilter.class);

	private final AddressGate gate;

	private final EndpointClassifier classifier;

	private final List<PathPattern> openPaths;

	private final RateLimitHeaders headers;

	private final RejectionBodyWriter bodyWriter;

	private final DecisionListener listener;

	private final int order;

	private final @Nullable RateLimiter limiter;

	private final @Nullable LoginAttempts loginAttempts;

	private final ConnectionThreads threads = new ConnectionThreads(Schedulers.parallel());

	private final ReactiveCors cors;

	/**
	 * Creates a gate filter.
	 * @param gate decides by address
	 * @param classifier names the endpoint group of a refusal (metrics, log, body)
	 * @param openPaths paths the gate never refuses
	 * @param headers writes the headers of a refusal
	 * @param bodyWriter writes the body of a refusal
	 * @param listener told of every refusal
	 * @param order the filter's order
	 */
	public ReactiveRateLimitGateFilter(AddressGate gate, EndpointClassifier classifier, List<PathPattern> openPaths,
			RateLimitHeaders headers, RejectionBodyWriter bodyWriter, DecisionListener listener, int order) {
		this(gate, classifier, openPaths, headers, bodyWriter, listener, order, null);
	}

	/**
	 * Creates a gate filter that also decides the limits that count by outcome.
	 * @param gate decides by address
	 * @param classifier names the endpoint group of a request
	 * @param openPaths paths the gate never refuses
	 * @param headers writes the headers of a decision
	 * @param bodyWriter writes the body of a refusal
	 * @param listener told of every refusal
	 * @param order the filter's order
	 * @param limiter decides the limits that count by outcome, or {@code null} to leave
	 * them to the {@link ReactiveRateLimitFilter}
	 */
	public ReactiveRateLimitGateFilter(AddressGate gate, EndpointClassifier classifier, List<PathPattern> openPaths,
			RateLimitHeaders headers, RejectionBodyWriter bodyWriter, DecisionListener listener, int order,
			@Nullable RateLimiter limiter) {
		this(gate, classifier, openPaths, headers, bodyWriter, listener, order, limiter, null);
	}

	/**
	 * Creates a gate filter that also decides the limits that count by outcome and, when
	 * the limiter protects logins ({@link RateLimiter#protectsLogins()}), the budgets of
	 * failed logins of every login attempt.
	 * @param gate decides by address
	 * @param classifier names the endpoint group of a request
	 * @param openPaths paths the gate never refuses by address rule or ban
	 * @param headers writes the headers of a decision
	 * @param bodyWriter writes the body of a refusal
	 * @param listener told of every refusal
	 * @param order the filter's order
	 * @param limiter decides the limits that count by outcome, or {@code null} to leave
	 * them to the {@link ReactiveRateLimitFilter}
	 * @param loginAttempts tells login attempts, or {@code null} when logins are not
	 * protected
	 */
	public ReactiveRateLimitGateFilter(AddressGate gate, EndpointClassifier classifier, List<PathPattern> openPaths,
			RateLimitHeaders headers, RejectionBodyWriter bodyWriter, DecisionListener listener, int order,
			@Nullable RateLimiter limiter, @Nullable LoginAttempts loginAttempts) {
		this(gate, classifier, openPaths, headers, bodyWriter, listener, order, limiter, loginAttempts,
				ReactiveCors.exposingOnly(ExposedHeaders.of(headers)));
	}

	/**
	 * Creates a gate filter that also decides the limits that count by outcome and the
	 * budgets of failed logins, with the application's CORS configuration: a refusal of a
	 * cross-origin request carries the CORS headers the application would have sent, and
	 * a preflight is refused by address rules and bans only.
	 * @param gate decides by address
	 * @param classifier names the endpoint group of a request
	 * @param openPaths paths the gate never refuses by address rule or ban
	 * @param headers writes the headers of a decision
	 * @param bodyWriter writes the body of a refusal
	 * @param listener told of every refusal
	 * @param order the filter's order
	 * @param limiter decides the limits that count by outcome, or {@code null} to leave
	 * them to the {@link ReactiveRateLimitFilter}
	 * @param loginAttempts tells login attempts, or {@code null} when logins are not
	 * protected
	 * @param cors the CORS support
	 */
	public ReactiveRateLimitGateFilter(AddressGate gate, EndpointClassifier classifier, List<PathPattern> openPaths,
			RateLimitHeaders headers, RejectionBodyWriter bodyWriter, DecisionListener listener, int order,
			@Nullable RateLimiter limiter, @Nullable LoginAttempts loginAttempts, ReactiveCors cors) {
		Assert.notNull(gate, "'gate' must not be null");
		Assert.notNull(classifier, "'classifier' must not be null");
		Assert.notNull(openPaths, "'openPaths' must not be null");
		Assert.notNull(headers, "'headers' must not be null");
		Assert.notNull(bodyWriter, "'bodyWriter' must not be null");
		Assert.notNull(listener, "'listener' must not be null");
		Assert.notNull(cors, "'cors' must not be null");
		this.gate = gate;
		this.classifier = classifier;
		this.openPaths = List.copyOf(openPaths);
		this.headers = headers;
		this.bodyWriter = bodyWriter;
		this.listener = listener;
		this.order = order;
		this.limiter = limiter;
		this.loginAttempts = (limiter != null && limiter.protectsLogins()) ? loginAttempts : null;
		this.cors = cors;
	}

	@Override
	public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
		this.cors.expose(exchange);
		// the common case: no address rule, no ban, no limit counting by outcome; nothing
		// is resolved
		if (!this.gate.active() && !countsByOutcome() && this.loginAttempts == null) {
			return chain.filter(exchange);
		}
		long start = System.nanoTime();
		Decision.Refusal refusal = check(exchange.getRequest());
		if (refusal != null) {
			this.listener.onDecision(refusal, System.nanoTime() - start);
			return refuse(exchange, refusal);
		}
		if ((!countsByOutcome() && this.loginAttempts == null) || ReactiveCors.isPreFlight(exchange.getRequest())) {
			// address rules and bans apply to a preflight; limits do not
			return chain.filter(exchange);
		}
		LoginAttempts attempts = this.loginAttempts;
		if (attempts == null) {
			// limits counting by outcome only: no attempt to read
			return decideAndRun(exchange, chain, null, start);
		}
		ServerHttpRequest request = exchange.getRequest();
		PathContainer path = request.getPath().pathWithinApplication();
		ReactiveClientRequest client = new ReactiveClientRequest(request, path.value(), null);
		if (!attempts.readsForm(request.getMethod().name(), path)) {
			// decided from the headers, without a Mono of its own
			return proceed(exchange, chain, attempt(attempts, client, path, (name) -> null), start);
		}
		// a form login's user name is read from the form, which Spring Security's form
		// login reads again after us (the exchange keeps it)
		return exchange.getFormData()
			.map((form) -> Optional.ofNullable(attempt(attempts, client, path, form::getFirst)))
			.onErrorResume((ex) -> {
				logger.debug("Could not read a login form; counting the attempt without its account", ex);
				return Mono.just(Optional.of(LoginAttempt.ANONYMOUS));
			})
			.flatMap((tried) -> proceed(exchange, chain, tried.orElse(null), start));
	}

	private Mono<Void> proceed(ServerWebExchange exchange, WebFilterChain chain, @Nullable LoginAttempt attempt,
			long start) {
		if (!countsByOutcome() && attempt == null) {
			return chain.filter(exchange);
		}
		return decideAndRun(exchange, chain, attempt, start);
	}

	private Mono<Void> decideAndRun(ServerWebExchange exchange, WebFilterChain chain, @Nullable LoginAttempt attempt,
			long start) {
		return Mono.defer(() -> {
			RequestLifecycle lifecycle = new RequestLifecycle();
			// until the chain runs, nothing ran
			AtomicInteger status = new AtomicInteger(Completion.NOT_RUN);
			return decideOutcomeCounted(exchange, lifecycle, attempt).flatMap((decided) -> {
				Decision decision = decided.orElse(null);
				if (decision == null || decision instanceof Decision.Unlimited) {
					// nothing counted by outcome here: the filter after authentication
					// decides and reports
					return run(exchange, chain, lifecycle, status, attempt);
				}
				this.headers.write(decision, exchange.getResponse().getHeaders()::set);
				if (decision instanceof Decision.Refusal refused) {
					this.listener.onDecision(refused, System.nanoTime() - start);
					return refuse(exchange, refused);
				}
				return run(exchange, chain, lifecycle, status, attempt);
			})
				// decided, failed or cancelled (while deciding or in the rest of the
				// chain)
				.doFinally((signal) -> lifecycle.end(status.get()));
		});
	}

	private boolean countsByOutcome() {
		return this.limiter != null && (this.limiter.countsByOutcome() || this.classifier.countsByOutcome());
	}

	/**
	 * The login attempt of a request, if any; one that cannot be read names no account.
	 */
	private static @Nullable LoginAttempt attempt(LoginAttempts attempts, ReactiveClientRequest client,
			PathContainer path, Function<String, @Nullable String> formParameter) {
		try {
			return attempts.attempt(client, path, formParameter);
		}
		catch (RuntimeException ex) {
			logger.error("Rate-limit gate could not read a login attempt; counting it without its account", ex);
			return LoginAttempt.ANONYMOUS;
		}
	}

	/**
	 * Decides the limits that count by outcome by the client address. A request that is
	 * excluded, or whose decision failed, has none here (it is decided whole by the
	 * filter after authentication).
	 */
	private Mono<Optional<Decision>> decideOutcomeCounted(ServerWebExchange exchange, RequestLifecycle lifecycle,
			@Nullable LoginAttempt attempt) {
		CompletableFuture<Optional<Decision>> decision;
		try {
			ServerHttpRequest request = exchange.getRequest();
			PathContainer path = request.getPath().pathWithinApplication();
			Classification classification = this.classifier.classify(request.getMethod().name(), path);
			if (classification.excluded() && attempt == null) {
				return Mono.just(Optional.empty());
			}
			// told on the store's side of the future: a decision that arrives after a
			// cancellation is given back
			decision = this.limiter
				.decideAsync(new ReactiveClientRequest(request, path.value(), null), classification,
						CheckScope.OUTCOME_COUNTED, attempt)
				.thenApply((decided) -> {
					lifecycle.decided(decided);
					if (!(decided instanceof Decision.Unlimited)) {
						exchange.getAttributes().put(OUTCOME_DECIDED_ATTRIBUTE, decided);
					}
					return Optional.of(decided);
				});
		}
		catch (RuntimeException ex) {
			logger.error("Rate-limit gate failed; letting the request through", ex);
			return Mono.just(Optional.empty());
		}
		if (decision.isDone()) {
			return Mono.fromFuture(decision);
		}
		// completes on the store's thread: hop off it before the rest of the chain runs
		return Mono.fromFuture(decision, true).publishOn(this.threads.of(exchange.getRequest()));
	}

	/**
	 * Runs the rest of the chain, noting the final status (Spring Security's refusals
	 * included): the response's when the chain completes, the error's (500 when it names
	 * none) when it fails, and none when it is cancelled (a client that went away stays
	 * counted).
	 */
	private Mono<Void> run(ServerWebExchange exchange, WebFilterChain chain, RequestLifecycle lifecycle,
			AtomicInteger status, @Nullable LoginAttempt attempt) {
		status.set(Completion.UNKNOWN);
		lifecycle.waitOver();
		if (!lifecycle.countsByOutcome()) {
			return chain.filter(exchange);
		}
		ServerHttpRequest request = exchange.getRequest();
		boolean formLogin = attempt != null && this.loginAttempts.isFormLogin(request.getMethod().name(),
				request.getPath().pathWithinApplication());
		ServerHttpResponse response = exchange.getResponse();
		// settled once: when the response commits, before the client can see it, or when
		// the chain completes or fails first
		AtomicBoolean settled = new AtomicBoolean();
		response.beforeCommit(() -> Mono.fromRunnable(() -> settle(exchange, attempt, formLogin, settled, lifecycle,
				ReactiveRateLimitFilter.statusOf(response))));
		return chain.filter(exchange)
			.doOnSuccess((ignored) -> settle(exchange, attempt, formLogin, settled, lifecycle,
					ReactiveRateLimitFilter.statusOf(response)))
			.doOnError((ex) -> settle(exchange, attempt, formLogin, settled, lifecycle,
					(ex instanceof ErrorResponse error) ? error.getStatusCode().value() : 500));
	}

	private void settle(ServerWebExchange exchange, @Nullable LoginAttempt attempt, boolean formLogin,
			AtomicBoolean settled, RequestLifecycle lifecycle, int status) {
		if (settled.compareAndSet(false, true)) {
			// a refusal of the limiter after us is no outcome
			lifecycle.committed(exchange.getAttributes().containsKey(REFUSED_AFTER_ATTRIBUTE) ? Completion.NOT_RUN
					: settled(exchange, attempt, formLogin, status));
		}
	}

	// a failed form login redirects: it counts as a 401
	private int settled(ServerWebExchange exchange, @Nullable LoginAttempt attempt, boolean formLogin, int status) {
		if (attempt == null) {
			return status;
		}
		int outcome = this.loginAttempts.outcome(formLogin, status,
				exchange.getResponse().getHeaders().getFirst(HttpHeaders.LOCATION),
				exchange.getRequest().getPath().contextPath().value());
		this.limiter.loginProtection().attempted(outcome);
		return outcome;
	}

	private Decision.@Nullable Refusal check(ServerHttpRequest request) {
		if (!this.gate.active()) {
			return null;
		}
		try {
			PathContainer path = request.getPath().pathWithinApplication();
			for (PathPattern open : this.openPaths) {
				if (open.matches(path)) {
					return null;
				}
			}
			return this.gate.check(new ReactiveClientRequest(request, path.value(), null),
					() -> this.classifier.classify(request.getMethod().name(), path));
		}
		catch (RuntimeException ex) {
			logger.error("Rate-limit gate failed; letting the request through", ex);
			return null;
		}
	}

	private Mono<Void> refuse(ServerWebExchange exchange, Decision.Refusal refusal) {
		ServerHttpResponse response = exchange.getResponse();
		HttpHeaders requestHeaders = exchange.getRequest().getHeaders();
		String requestId = RequestIds.sanitizeOrGenerate(requestHeaders.getFirst(RequestIds.HEADER));
		response.getHeaders().set(RequestIds.HEADER, requestId);
		exchange.getAttributes().put(ReactiveRateLimitFilter.REQUEST_ID_ATTRIBUTE, requestId);
		this.headers.write(refusal, response.getHeaders()::set);
		// a refusal before anything read the request: close the connection rather than
		// reuse it (the request's
		// body, if any, was never read), which also makes a denied or banned client pay a
		// new connection per try
		response.getHeaders().set(HttpHeaders.CONNECTION, "close");
		byte[] body = ReactiveRefusals.prepare(response, refusal, requestId, this.bodyWriter);
		return ReactiveRefusals.write(exchange, body, this.cors);
	}

	@Override
	public int getOrder() {
		return this.order;
	}

}
