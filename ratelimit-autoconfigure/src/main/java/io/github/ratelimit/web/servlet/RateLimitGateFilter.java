package io.github.ratelimit.web.servlet;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.http.server.PathContainer;
import org.springframework.util.Assert;
import org.springframework.web.util.pattern.PathPattern;

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
 * The gate before authentication for Spring MVC: runs before Spring Security's filter
 * chain and refuses, by the client address alone, what the {@link AddressGate} refuses (a
 * deny rule's range, a ban on the address), with the same status, headers and problem
 * body as the {@link RateLimitFilter}. A request it lets through goes on untouched, to be
 * authenticated and limited; one it refuses is one decision, told to the
 * {@link DecisionListener} (metrics, rejection log) here and never seen by the limiter.
 * <p>
 * With a {@link RateLimiter}, the gate also decides the limits of the request that count
 * by outcome ({@link CheckScope#OUTCOME_COUNTED}) for the caller known before
 * authentication (the client address), and settles them with the final status, the one
 * Spring Security writes for a refusal included: a wrong password answered 401 by HTTP
 * Basic counts towards a failures-only limit, and once the budget is spent the attempt is
 * refused before its password is checked. The {@link RateLimitFilter} after
 * authentication then decides the rest ({@link #OUTCOME_DECIDED_ATTRIBUTE}), the
 * outcome-counted limits of the authenticated caller included (a per-user limit, another
 * tier's). A request whose group has no such limit costs no store call here.
 * <p>
 * Paths in {@code openPaths} (the health probes) are never refused: a ban on a load
 * balancer's address must not take healthy instances out of service. Anything unexpected
 * lets the request through: the gate never answers 500.
 */
public final class RateLimitGateFilter extends OwnDispatchFilter {

	/**
	 * The request attribute holding the gate's {@link Decision} of the request's
	 * outcome-counted limits: the {@link RateLimitFilter} leaves them out
	 * ({@link RateLimiter#decidedLimits}) and shows them in its headers.
	 */
	public static final String OUTCOME_DECIDED_ATTRIBUTE = RateLimitGateFilter.class.getName() + ".outcomeDecided";

	/**
	 * The request attribute the {@link RateLimitFilter} sets when it refuses a request
	 * the gate let through: a refusal of the limiter is not an outcome of the
	 * application, and gives the gate's reservation back.
	 */
	public static final String REFUSED_AFTER_ATTRIBUTE = RateLimitGateFilter.class.getName() + ".refusedAfter";

	private static final Logger logger = LoggerFactory.getLogger(RateLimitGateFilter.class);

	private final AddressGate gate;

	private final EndpointClassifier classifier;

	private final List<PathPattern> openPaths;

	private final RateLimitHeaders headers;

	private final RejectionBodyWriter bodyWriter;

	private final DecisionListener listener;

	private final @Nullable RateLimiter limiter;

	private final @Nullable LoginAttempts loginAttempts;

	private final ServletCors cors;

	private final ApplicationPaths paths = new ApplicationPaths();

	/**
	 * Creates a gate filter.
	 * @param gate decides by address
	 * @param classifier names the endpoint group of a refusal (metrics, log, body)
	 * @param openPaths paths the gate never refuses
	 * @param headers writes the headers of a refusal
	 * @param bodyWriter writes the body of a refusal
	 * @param listener told of every refusal
	 */
	public RateLimitGateFilter(AddressGate gate, EndpointClassifier classifier, List<PathPattern> openPaths,
			RateLimitHeaders headers, RejectionBodyWriter bodyWriter, DecisionListener listener) {
		this(gate, classifier, openPaths, headers, bodyWriter, listener, null);
	}

	/**
	 * Creates a gate filter that also decides the limits that count by outcome.
	 * @param gate decides by address
	 * @param classifier names the endpoint group of a request
	 * @param openPaths paths the gate never refuses
	 * @param headers writes the headers of a decision
	 * @param bodyWriter writes the body of a refusal
	 * @param listener told of every refusal
	 * @param limiter decides the limits that count by outcome, or {@code null} to leave
	 * them to the {@link RateLimitFilter}
	 */
	public RateLimitGateFilter(AddressGate gate, EndpointClassifier classifier, List<PathPattern> openPaths,
			RateLimitHeaders headers, RejectionBodyWriter bodyWriter, DecisionListener listener,
			@Nullable RateLimiter limiter) {
		this(gate, classifier, openPaths, headers, bodyWriter, listener, limiter, null);
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
	 * @param limiter decides the limits that count by outcome, or {@code null} to leave
	 * them to the {@link RateLimitFilter}
	 * @param loginAttempts tells login attempts, or {@code null} when logins are not
	 * protected
	 */
	public RateLimitGateFilter(AddressGate gate, EndpointClassifier classifier, List<PathPattern> openPaths,
			RateLimitHeaders headers, RejectionBodyWriter bodyWriter, DecisionListener listener,
			@Nullable RateLimiter limiter, @Nullable LoginAttempts loginAttempts) {
		this(gate, classifier, openPaths, headers, bodyWriter, listener, limiter, loginAttempts,
				ServletCors.exposingOnly(ExposedHeaders.of(headers)));
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
	 * @param limiter decides the limits that count by outcome, or {@code null} to leave
	 * them to the {@link RateLimitFilter}
	 * @param loginAttempts tells login attempts, or {@code null} when logins are not
	 * protected
	 * @param cors the CORS support
	 */
	public RateLimitGateFilter(AddressGate gate, EndpointClassifier classifier, List<PathPattern> openPaths,
			RateLimitHeaders headers, RejectionBodyWriter bodyWriter, DecisionListener listener,
			@Nullable RateLimiter limiter, @Nullable LoginAttempts loginAttempts, ServletCors cors) {
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
		this.limiter = limiter;
		this.loginAttempts = (limiter != null && limiter.protectsLogins()) ? loginAttempts : null;
		this.cors = cors;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse servletResponse, FilterChain chain)
			throws ServletException, IOException {
		HttpServletResponse response = this.cors.exposeOn(request, servletResponse);
		// the common case: no address rule, no ban, no limit counting by outcome, logins
		// not protected; nothing is resolved
		if (idle()) {
			chain.doFilter(request, response);
			return;
		}
		long start = System.nanoTime();
		// parsed once for the address check, the login attempt and the classification
		PathContainer path = pathOf(request);
		Decision.Refusal refusal = check(request, path);
		if (refusal != null) {
			this.listener.onDecision(refusal, System.nanoTime() - start);
			refuse(request, response, refusal);
			return;
		}
		if (ServletCors.isPreFlight(request)) {
			// address rules and bans apply to a preflight; limits do not
			chain.doFilter(request, response);
			return;
		}
		LoginAttempt attempt = attempt(request, path);
		if (!countsByOutcome() && attempt == null) {
			chain.doFilter(request, response);
			return;
		}
		boolean formLogin = attempt != null && this.loginAttempts.isFormLogin(request.getMethod(), path);
		RequestLifecycle lifecycle = new RequestLifecycle();
		Decision decision = decideOutcomeCounted(request, response, lifecycle, start, path, attempt);
		if (decision instanceof Decision.Refusal refused) {
			lifecycle.end(Completion.NOT_RUN);
			refuse(request, response, refused);
			return;
		}
		boolean endsAsync = false;
		boolean returned = false;
		Outcome outcome = new Outcome(request, lifecycle, attempt, formLogin);
		try {
			lifecycle.waitOver();
			// settled when the response commits, before the client can see it
			chain.doFilter(request,
					lifecycle.countsByOutcome() ? new CommitNotifyingResponse(response, outcome) : response);
			returned = true;
			endsAsync = request.isAsyncStarted() && AsyncLifecycleListener.endOnAsyncEnd(request, response, lifecycle);
		}
		finally {
			if (!endsAsync) {
				// or now, when nothing committed it yet
				outcome.committed(
						(returned || response.isCommitted()) ? response.getStatus()
								: HttpServletResponse.SC_INTERNAL_SERVER_ERROR,
						response.getHeader(HttpHeaders.LOCATION));
				lifecycle.end();
			}
		}
	}

	private boolean idle() {
		return !this.gate.active() && this.loginAttempts == null && !countsByOutcome();
	}

	private boolean countsByOutcome() {
		return this.limiter != null && (this.limiter.countsByOutcome() || this.classifier.countsByOutcome());
	}

	/**
	 * Decides the limits that count by outcome, by the client address; {@code null} when
	 * there are none or the limiter failed (the request goes on, and the
	 * {@link RateLimitFilter} decides it whole).
	 */
	private @Nullable Decision decideOutcomeCounted(HttpServletRequest request, HttpServletResponse response,
			RequestLifecycle lifecycle, long start, @Nullable PathContainer path, @Nullable LoginAttempt attempt) {
		try {
			if (path == null) {
				return null;
			}
			Classification classification = this.classifier.classify(request.getMethod(), path);
			if (classification.excluded() && attempt == null) {
				return null;
			}
			Decision decision = this.limiter.decide(new ServletClientRequest(request, path.value()), classification,
					CheckScope.OUTCOME_COUNTED, attempt);
			if (decision instanceof Decision.Unlimited) {
				// nothing counted by outcome here: the filter after authentication
				// decides it whole
				return null;
			}
			lifecycle.decided(decision);
			request.setAttribute(OUTCOME_DECIDED_ATTRIBUTE, decision);
			this.headers.write(decision, response::setHeader);
			if (decision instanceof Decision.Refusal) {
				this.listener.onDecision(decision, System.nanoTime() - start);
			}
			return decision;
		}
		catch (RuntimeException ex) {
			logger.error("Rate-limit gate failed; letting the request through", ex);
			lifecycle.end();
			return null;
		}
	}

	private @Nullable PathContainer pathOf(HttpServletRequest request) {
		try {
			return this.paths.of(request);
		}
		catch (RuntimeException ex) {
			logger.error("Rate-limit gate failed; letting the request through", ex);
			return null;
		}
	}

	/**
	 * The login attempt the request makes, or {@code null} (none, or logins are not
	 * protected).
	 */
	private @Nullable LoginAttempt attempt(HttpServletRequest request, @Nullable PathContainer path) {
		LoginAttempts attempts = this.loginAttempts;
		if (attempts == null || path == null) {
			return null;
		}
		try {
			// reading a form parameter parses a form body, as Spring Security's form
			// login does after us
			return attempts.attempt(new ServletClientRequest(request, path.value()), path, request::getParameter);
		}
		catch (RuntimeException ex) {
			logger.error("Rate-limit gate could not read a login attempt; counting it without its account", ex);
			return LoginAttempt.ANONYMOUS;
		}
	}

	private Decision.@Nullable Refusal check(HttpServletRequest request, @Nullable PathContainer path) {
		if (path == null || !this.gate.active()) {
			return null;
		}
		try {
			for (PathPattern open : this.openPaths) {
				if (open.matches(path)) {
					return null;
				}
			}
			return this.gate.check(new ServletClientRequest(request, path.value()),
					() -> this.classifier.classify(request.getMethod(), path));
		}
		catch (RuntimeException ex) {
			logger.error("Rate-limit gate failed; letting the request through", ex);
			return null;
		}
	}

	private void refuse(HttpServletRequest request, HttpServletResponse response, Decision.Refusal refusal)
			throws IOException {
		String requestId = RequestIds.sanitizeOrGenerate(request.getHeader(RequestIds.HEADER));
		response.setHeader(RequestIds.HEADER, requestId);
		this.headers.write(refusal, response::setHeader);
		ServletRefusals.write(request, response, refusal, requestId, this.bodyWriter, this.cors);
	}

	/**
	 * Settles a request's limits that count by outcome, once: with the status its
	 * response commits with, or the one it has when the chain returns.
	 */
	private final class Outcome implements CommitNotifyingResponse.Listener {

		private final HttpServletRequest request;

		private final RequestLifecycle lifecycle;

		private final @Nullable LoginAttempt attempt;

		private final boolean formLogin;

		private final AtomicBoolean settled = new AtomicBoolean();

		Outcome(HttpServletRequest request, RequestLifecycle lifecycle, @Nullable LoginAttempt attempt,
				boolean formLogin) {
			this.request = request;
			this.lifecycle = lifecycle;
			this.attempt = attempt;
			this.formLogin = formLogin;
		}

		@Override
		public void committed(int status, @Nullable String location) {
			if (!this.settled.compareAndSet(false, true)) {
				return;
			}
			// the status Security wrote for a refusal (401, 403) settles the reservation
			// like any other; a refusal of the limiter after us is no outcome
			int outcome = (this.request.getAttribute(REFUSED_AFTER_ATTRIBUTE) != null) ? Completion.NOT_RUN : status;
			if (this.attempt != null && outcome != Completion.NOT_RUN) {
				outcome = RateLimitGateFilter.this.loginAttempts.outcome(this.formLogin, outcome, location,
						this.request.getContextPath());
				RateLimitGateFilter.this.limiter.loginProtection().attempted(outcome);
			}
			this.lifecycle.committed(outcome);
		}

	}

}
