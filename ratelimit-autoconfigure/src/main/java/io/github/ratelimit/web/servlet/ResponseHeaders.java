package io.github.ratelimit.web.servlet;

import java.util.function.BiConsumer;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

/**
 * How the filter sets its headers on a response: straight into the container's own
 * response where {@link ResponseHeadersValve} left a way in for this request and the
 * response is the container's own (no wrapper of another filter would miss them), else
 * through the servlet API. Servlet containers other than Tomcat always take the servlet
 * API.
 */
final class ResponseHeaders {

	/** The request attribute that holds the container's own header setter. */
	static final String ATTRIBUTE = ResponseHeaders.class.getName();

	private ResponseHeaders() {
	}

	/**
	 * The setter of the response's headers, with set semantics (a header of the same name
	 * is replaced).
	 * @param request the request
	 * @param response the response the filter writes
	 * @return the setter
	 */
	static BiConsumer<String, String> setter(HttpServletRequest request, HttpServletResponse response) {
		if (request.getAttribute(ATTRIBUTE) instanceof Direct direct && direct.writes(response)) {
			return direct;
		}
		return response::setHeader;
	}

	/** A setter that writes into a container's own response. */
	interface Direct extends BiConsumer<String, String> {

		/**
		 * Whether this setter writes the given response, rather than the one it wraps.
		 * @param response the response the filter was given
		 * @return {@code true} when it is the container's own
		 */
		boolean writes(HttpServletResponse response);

	}

}
