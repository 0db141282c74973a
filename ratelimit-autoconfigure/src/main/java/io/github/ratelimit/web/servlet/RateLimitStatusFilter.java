package io.github.ratelimit.web.servlet;

import java.io.IOException;

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
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.util.pattern.PathPattern;

import io.github.ratelimit.core.status.CallerStatus;
import io.github.ratelimit.core.status.StatusAnswer;
import io.github.ratelimit.http.CallerStatusBody;
import io.github.ratelimit.http.RateLimitHeaders;
import io.github.ratelimit.http.RejectionBodyWriter;
import io.github.ratelimit.http.RequestIds;
import io.github.ratelimit.web.ExposedHeaders;

/**
 * The status endpoint for Spring MVC: answers {@code GET} (and {@code HEAD}) of the
 * status path with the caller's own standing ({@link CallerStatus}), as JSON that must
 * not be cached. It runs after Spring Security's filter chain, so the caller is
 * identified as the limiter identifies it, and before the {@link RateLimitFilter}, which
 * the status request never reaches: it counts against no limit (the path is excluded from
 * the limits too). The gate before authentication still refuses a denied or banned
 * address here; a deny rule or a ban on an identity is answered as the limiter answers
 * it, and a store that cannot be read, 503.
 * <p>
 * {@code OPTIONS} (a CORS preflight) goes on to the application; other methods are
 * answered 405. Anything unexpected answers 503: never a 500.
 */
public final class RateLimitStatusFilter extends OncePerRequestFilter {

	private static final Logger logger = LoggerFactory.getLogger(RateLimitStatusFilter.class);

	private final CallerStatus status;

	private final PathPattern path;

	private final RateLimitHeaders headers;

	private final RejectionBodyWriter bodyWriter;

	private final ServletCors cors;

	private final ApplicationPaths paths = new ApplicationPaths();

	/**
	 * Creates the filter.
	 * @param status answers callers
	 * @param path the status path, within the application
	 * @param headers writes the headers of a refusal
	 * @param bodyWriter writes the body of a refusal
	 */
	public RateLimitStatusFilter(CallerStatus status, PathPattern path, RateLimitHeaders headers,
			RejectionBodyWriter bodyWriter) {
		this(status, path, headers, bodyWriter, ServletCors.exposingOnly(ExposedHeaders.of(headers)));
	}

	/**
	 * Creates the filter.
	 * @param status answers callers
	 * @param path the status path, within the application
	 * @param headers writes the headers of a refusal
	 * @param bodyWriter writes the body of a refusal
	 * @param cors gives a cross-origin answer the application's CORS headers
	 */
	public RateLimitStatusFilter(CallerStatus status, PathPattern path, RateLimitHeaders headers,
			RejectionBodyWriter bodyWriter, ServletCors cors) {
		Assert.notNull(cors, "'cors' must not be null");
		Assert.notNull(status, "'status' must not be null");
		Assert.notNull(path, "'path' must not be null");
		Assert.notNull(headers, "'headers' must not be null");
		Assert.notNull(bodyWriter, "'bodyWriter' must not be null");
		this.status = status;
		this.path = path;
		this.headers = headers;
		this.bodyWriter = bodyWriter;
		this.cors = cors;
	}

	@Override
	protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		PathContainer path = pathOf(request);
		String method = request.getMethod();
		if (path == null || !this.path.matches(path) || "OPTIONS".equals(method)) {
			chain.doFilter(request, response);
			return;
		}
		response.setHeader(HttpHeaders.CACHE_CONTROL, "no-store");
		if (!"GET".equals(method) && !"HEAD".equals(method)) {
			response.setHeader(HttpHeaders.ALLOW, "GET, HEAD");
			response.setStatus(HttpServletResponse.SC_METHOD_NOT_ALLOWED);
			return;
		}
		StatusAnswer answer;
		try {
			answer = this.status.status(new ServletClientRequest(request, path.value()));
		}
		catch (RuntimeException ex) {
			logger.error("Rate-limit status failed; answering 503", ex);
			response.setStatus(HttpServletResponse.SC_SERVICE_UNAVAILABLE);
			return;
		}
		if (answer instanceof StatusAnswer.Refused refused) {
			String requestId = RequestIds.sanitizeOrGenerate(request.getHeader(RequestIds.HEADER));
			response.setHeader(RequestIds.HEADER, requestId);
			this.headers.write(refused.refusal(), response::setHeader);
			ServletRefusals.write(request, response, refused.refusal(), requestId, this.bodyWriter, this.cors);
			return;
		}
		byte[] body = CallerStatusBody.write(((StatusAnswer.Known) answer).standing());
		// answered here, before any handler: the application's CORS headers as on a
		// refusal
		this.cors.applyToRefusal(request, response);
		response.setStatus(HttpServletResponse.SC_OK);
		response.setContentType(CallerStatusBody.CONTENT_TYPE);
		response.setContentLength(body.length);
		if ("GET".equals(method)) {
			response.getOutputStream().write(body);
		}
	}

	private @Nullable PathContainer pathOf(HttpServletRequest request) {
		try {
			return this.paths.of(request);
		}
		catch (RuntimeException ex) {
			// not a path the status could have: the application answers it
			return null;
		}
	}

}
