package io.github.ratelimit.web.servlet;

import java.util.List;
import java.util.function.Supplier;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;
import org.springframework.util.Assert;
import org.springframework.web.cors.CorsConfiguration;
import org.springframework.web.cors.CorsConfigurationSource;
import org.springframework.web.cors.CorsProcessor;
import org.springframework.web.cors.CorsUtils;
import org.springframework.web.cors.DefaultCorsProcessor;

import io.github.ratelimit.web.ExposedHeaders;

/**
 * CORS for the rate-limit filters on Spring MVC. They run before the application's CORS
 * handling (Spring MVC's handler mappings, a {@code CorsFilter} bean, often Spring
 * Security's filter chain), so:
 * <ul>
 * <li>a refusal of a cross-origin request is given the CORS headers the application would
 * have sent ({@link #applyToRefusal}): those of the first of the application's
 * {@code CorsFilter} beans, {@link CorsConfigurationSource} beans (what Spring Security's
 * {@code cors()} uses) and Spring MVC's handler mappings to have them, so that a script
 * can read the 429, its {@code Retry-After} and its body;</li>
 * <li>a response whose origin is allowed lists our headers in
 * {@code Access-Control-Expose-Headers} ({@link #exposeOn});</li>
 * <li>a preflight is neither charged nor refused by limits ({@link #isPreFlight}).</li>
 * </ul>
 * A request without an {@code Origin} header, or from its own origin, is left alone.
 */
public final class ServletCors {

	private static final Logger logger = LoggerFactory.getLogger(ServletCors.class);

	private static final String EXPOSING_ATTRIBUTE = ServletCors.class.getName() + ".exposing";

	// the application's CORS filters run over a refusal, and stop there
	private static final FilterChain END = (request, response) -> {
	};

	private final ExposedHeaders exposed;

	private final Supplier<List<Filter>> corsFilters;

	private final Supplier<List<CorsConfigurationSource>> sources;

	private final CorsProcessor processor = new DefaultCorsProcessor();

	/**
	 * Creates the CORS support of the filters.
	 * @param exposed our headers, exposed to scripts
	 * @param corsFilters the application's CORS filters (such as {@code CorsFilter}
	 * beans), asked for at the first refusal
	 * @param sources the application's CORS configuration, in order: the first to have
	 * one for a request decides; asked for at the first refusal
	 */
	public ServletCors(ExposedHeaders exposed, Supplier<List<Filter>> corsFilters,
			Supplier<List<CorsConfigurationSource>> sources) {
		Assert.notNull(exposed, "'exposed' must not be null");
		Assert.notNull(corsFilters, "'corsFilters' must not be null");
		Assert.notNull(sources, "'sources' must not be null");
		this.exposed = exposed;
		this.corsFilters = corsFilters;
		this.sources = sources;
	}

	/**
	 * CORS support that knows none of the application's CORS configuration: refusals
	 * carry CORS headers only when the application's CORS handling ran before the
	 * refusing filter.
	 * @param exposed our headers, exposed to scripts
	 * @return the support
	 */
	public static ServletCors exposingOnly(ExposedHeaders exposed) {
		return new ServletCors(exposed, List::of, List::of);
	}

	/**
	 * Whether the request is a CORS preflight, which limits neither charge nor refuse.
	 * @param request the request
	 * @return whether it is a preflight
	 */
	public static boolean isPreFlight(HttpServletRequest request) {
		return CorsUtils.isPreFlightRequest(request);
	}

	/**
	 * The response to hand on: for a cross-origin request, one that exposes our headers
	 * once the application allows the origin.
	 * @param request the request
	 * @param response its response
	 * @return the response to hand on
	 */
	public HttpServletResponse exposeOn(HttpServletRequest request, HttpServletResponse response) {
		if (!isCors(request) || isPreFlight(request) || request.getAttribute(EXPOSING_ATTRIBUTE) != null) {
			return response;
		}
		request.setAttribute(EXPOSING_ATTRIBUTE, Boolean.TRUE);
		return CorsExposingResponse.wrap(response, this.exposed);
	}

	/**
	 * Gives a refusal of a cross-origin request the CORS headers the application would
	 * have sent, our headers exposed. An origin the application does not allow gets none.
	 * Its status and body are left alone.
	 * @param request the refused request
	 * @param response its response, before its body is written
	 */
	public void applyToRefusal(HttpServletRequest request, HttpServletResponse response) {
		if (!isCors(request)) {
			return;
		}
		HttpServletResponse exposing = CorsExposingResponse.wrap(response, this.exposed);
		if (applied(response)) {
			// the application's CORS handling ran before the refusing filter
			return;
		}
		HttpServletResponse headersOnly = new HeadersOnlyResponse(exposing);
		try {
			for (Filter filter : this.corsFilters.get()) {
				filter.doFilter(request, headersOnly, END);
				if (applied(response)) {
					return;
				}
			}
			for (CorsConfigurationSource source : this.sources.get()) {
				CorsConfiguration configuration = source.getCorsConfiguration(request);
				if (configuration != null) {
					this.processor.processRequest(configuration, request, headersOnly);
					return;
				}
			}
		}
		catch (Exception ex) {
			// the refusal goes out all the same, without CORS headers
			logger.warn("Could not apply the application's CORS configuration to a rate-limit refusal", ex);
		}
	}

	private static boolean applied(HttpServletResponse response) {
		return response.getHeader(ExposedHeaders.ALLOW_ORIGIN) != null;
	}

	private static boolean isCors(HttpServletRequest request) {
		if (request.getHeader(HttpHeaders.ORIGIN) == null) {
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
