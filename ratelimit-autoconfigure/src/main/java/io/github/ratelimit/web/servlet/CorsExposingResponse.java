package io.github.ratelimit.web.servlet;

import java.util.List;

import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;

import io.github.ratelimit.web.ExposedHeaders;

/**
 * A response that lists our headers in {@code Access-Control-Expose-Headers} as soon as
 * whoever handles CORS (Spring MVC's handler mappings, a {@code CorsFilter}, Spring
 * Security) allows the request's origin, merged with what it exposes itself.
 */
final class CorsExposingResponse extends HttpServletResponseWrapper {

	private final ExposedHeaders exposed;

	private CorsExposingResponse(HttpServletResponse response, ExposedHeaders exposed) {
		super(response);
		this.exposed = exposed;
	}

	/**
	 * Wraps a response; one whose origin is allowed already exposes our headers at once.
	 */
	static HttpServletResponse wrap(HttpServletResponse response, ExposedHeaders exposed) {
		if (response instanceof CorsExposingResponse) {
			return response;
		}
		CorsExposingResponse wrapper = new CorsExposingResponse(response, exposed);
		if (response.getHeader(ExposedHeaders.ALLOW_ORIGIN) != null) {
			wrapper.expose();
		}
		return wrapper;
	}

	@Override
	public void setHeader(String name, String value) {
		if (value != null && ExposedHeaders.EXPOSE_HEADERS.equalsIgnoreCase(name)) {
			// Spring's CORS processor sets the header, replacing what we added
			String missing = this.exposed.missingFrom(List.of(value));
			super.setHeader(name, (missing != null) ? value + ", " + missing : value);
			return;
		}
		super.setHeader(name, value);
		if (ExposedHeaders.ALLOW_ORIGIN.equalsIgnoreCase(name)) {
			expose();
		}
	}

	@Override
	public void addHeader(String name, String value) {
		super.addHeader(name, value);
		if (ExposedHeaders.ALLOW_ORIGIN.equalsIgnoreCase(name)) {
			expose();
		}
	}

	private void expose() {
		String missing = this.exposed.missingFrom(getHeaders(ExposedHeaders.EXPOSE_HEADERS));
		if (missing != null) {
			super.addHeader(ExposedHeaders.EXPOSE_HEADERS, missing);
		}
	}

}
