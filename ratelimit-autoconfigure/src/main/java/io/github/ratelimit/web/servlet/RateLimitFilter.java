package io.github.ratelimit.web.servlet;

import java.io.IOException;
import java.util.Set;
import java.util.function.BiConsumer;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.springframework.http.server.PathContainer;
import org.springframework.util.Assert;

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
 * The rate limiter for Spring MVC: classifies the request, lets the {@link RateLimiter}
 * decide, writes the rate-limit headers, and answers 429/403/503 with a problem body or
 * lets the request through. Anything unexpected inside the limiter admits the request:
 * the limiter never answers 500. A failing {@link RejectionBodyWriter} still refuses the
 * request, with an empty body.
 * <p>
 * An admitted request that must wait for its tokens ({@code max-wait}) sleeps on its own
 * thread first. It holds what its decision took (a waiting slot, concurrency permits) in
 * a {@link RequestLifecycle} that ends when the chain returns, however it returns (an
 * exception, a client that went away), or, for a request that went asynchronous, when its
 * asynchronous processing completes, fails or times out. A request interrupted while it
 * waits (the server is stopping) does not run: it gives everything back and is answered
 * 503 without a body, since running before its tokens are there would exceed its limit.
 * <p>
 * The response's final status settles limits that count only some responses: read when
 * the response commits, before the client can see it, or else when the chain returns, or
 * when a request that went asynchronous completes (one that times out or fails stays
 * counted).
 * <p>
 * A request is decided on its own dispatch only: a forward or include within it, its
 * asynchronous dispatches and its error page are not decided again.
 */
public final class RateLimitFilter extends OwnDispatchFilter {

	/** The MDC key of the request id. */
	public static final String MDC_REQUEST_ID = "requestId";

	private static final Logger logger = LoggerFactory.getLogger(RateLimitFilter.class);

	private final RateLimiter limiter;

	private final EndpointClassifier classifier;

	private final RateLimitHeaders headers;

	private final RejectionBodyWriter bodyWriter;

	private final DecisionListener listener;

	private final ServletCors cors;

	private final ApplicationPaths paths = new ApplicationPaths();

	/**
	 * Creates a filter that knows none of the application's CORS configuration (see
	 * {@link ServletCors#exposingOnly}).
	 * @param limiter decides
	 * @param classifier classifies requests
	 * @param headers writes the rate-limit headers
	 * @param bodyWriter writes the body of refusals
	 * @param listener told of every decision
	 */
	public RateLimitFilter(RateLimiter limiter, EndpointClassifier classifier, RateLimitHeaders headers,
			RejectionBodyWriter bodyWriter, DecisionListener listener) {
		this(limiter, classifier, headers, bodyWriter, listener, ServletCors.exposingOnly(ExposedHeaders.of(headers)));
	}

	/**
	 * Creates a filter.
	 * @param limiter decides
	 * @param classifier classifies requests
	 * @param headers writes the rate-limit headers
	 * @param bodyWriter writes the body of refusals
	 * @param listener told of every decision
	 * @param cors gives refusals the application's CORS headers, exposes ours and tells
	 * preflights, which are never charged
	 */
	public RateLimitFilter(RateLimiter limiter, EndpointClassifier classifier, RateLimitHeaders headers,
			RejectionBodyWriter bodyWriter, DecisionListener listener, ServletCors cors) {
		Assert.notNull(limiter, "'limiter' must not be null");
		Assert.notNull(classifier, "'classifier' must not be null");
		Assert.notNull(headers, "'headers' must not be null");
		Assert.notNull(bodyWriter, "'bodyWriter' must not be null");
		Assert.notNull(listener, "'listener' must not be null");
		Assert.notNull(cors, "'cors' must not be null");
		this.limiter = limiter;
		this.classifier = classifier;
		this.headers = headers;
		this.bodyWriter = bodyWriter;
		this.listener = listener;
		this.cors = cors;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse servletResponse, FilterChain chain)
			throws ServletException, IOException {
		HttpServletResponse response = this.cors.exposeOn(request, servletResponse);
		BiConsumer<String, String> header = ResponseHeaders.setter(request, response);
		String requestId = RequestIds.sanitizeOrGenerate(request.getHeader(RequestIds.HEADER));
		header.accept(RequestIds.HEADER, requestId);
		MDC.put(MDC_REQUEST_ID, requestId);
		RequestLifecycle lifecycle = new RequestLifecycle(this.limiter.inFlight());
		boolean endsAsync = false;
		boolean ran = false;
		boolean returned = false;
		try {
			Decision decision = decide(request, header, lifecycle);
			if (decision instanceof Decision.Refusal refusal) {
				request.setAttribute(RateLimitGateFilter.REFUSED_AFTER_ATTRIBUTE, Boolean.TRUE);
				reject(request, response, refusal, requestId);
			}
			else if (awaitTokens(decision, response)) {
				lifecycle.waitOver();
				ran = true;
				chain.doFilter(request, settledOnCommit(response, lifecycle));
				returned = true;
				endsAsync = request.isAsyncStarted()
						&& AsyncLifecycleListener.endOnAsyncEnd(request, response, lifecycle);
			}
		}
		finally {
			if (!endsAsync) {
				lifecycle.end(finalStatus(response, ran, returned));
			}
			MDC.remove(MDC_REQUEST_ID);
		}
	}

	/**
	 * The response the chain writes: one that settles the limits that count by outcome
	 * when it commits, before the client can see it, when the request has such limits.
	 */
	private static HttpServletResponse settledOnCommit(HttpServletResponse response, RequestLifecycle lifecycle) {
		if (!lifecycle.countsByOutcome()) {
			return response;
		}
		return new CommitNotifyingResponse(response, (status, location) -> lifecycle.committed(status));
	}

	/**
	 * The status a limit that counts by outcome is settled with: the response's once the
	 * chain returned (a refusal of the application or of an error page included), 500 for
	 * an exception the container has yet to answer, and nothing counted for a request
	 * that never reached the chain.
	 */
	private static int finalStatus(HttpServletResponse response, boolean ran, boolean returned) {
		if (!ran) {
			return Completion.NOT_RUN;
		}
		return (returned || response.isCommitted()) ? response.getStatus()
				: HttpServletResponse.SC_INTERNAL_SERVER_ERROR;
	}

	/**
	 * Sleeps until the admitted request's reserved tokens are there.
	 * @return {@code false} when interrupted: the request is answered 503 and does not
	 * run
	 */
	private static boolean awaitTokens(@Nullable Decision decision, HttpServletResponse response) {
		long millis = (decision instanceof Decision.Allowed allowed) ? allowed.waitMillis() : 0;
		if (millis <= 0) {
			return true;
		}
		try {
			Thread.sleep(millis);
			return true;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			logger.debug("Interrupted while waiting for rate-limit tokens; answering 503");
			response.setStatus(HttpServletResponse.SC_SERVICE_UNAVAILABLE);
			return false;
		}
	}

	/**
	 * Decides and writes the headers; {@code null} when the limiter itself failed (the
	 * request goes on, holding nothing).
	 */
	private @Nullable Decision decide(HttpServletRequest request, BiConsumer<String, String> header,
			RequestLifecycle lifecycle) {
		long start = System.nanoTime();
		try {
			PathContainer path = this.paths.of(request);
			Classification classification = this.classifier.classify(request.getMethod(), path);
			if (classification.excluded() || ServletCors.isPreFlight(request)) {
				return null;
			}
			// the gate before authentication decided the limits that count by outcome:
			// decided once
			Decision gate = (request.getAttribute(RateLimitGateFilter.OUTCOME_DECIDED_ATTRIBUTE) instanceof Decision d)
					? d : null;
			Decision decision = this.limiter.decide(new ServletClientRequest(request, path.value()), classification,
					(gate != null) ? RateLimiter.decidedLimits(gate) : Set.of());
			lifecycle.decided(decision);
			this.headers.write(decision, GateDecisions.shown(gate, decision), header);
			this.listener.onDecision(decision, System.nanoTime() - start);
			return decision;
		}
		catch (RuntimeException ex) {
			logger.error("Rate limiter failed; admitting the request", ex);
			// what the decision took is given back now: the request goes on as if no
			// limit applied
			lifecycle.end();
			return null;
		}
	}

	private void reject(HttpServletRequest request, HttpServletResponse response, Decision.Refusal refusal,
			String requestId) throws IOException {
		ServletRefusals.write(request, response, refusal, requestId, this.bodyWriter, this.cors);
	}

}
