package io.github.ratelimit.web.servlet;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.List;

import jakarta.servlet.http.HttpServletRequest;
import org.jspecify.annotations.Nullable;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.util.ClassUtils;

import io.github.ratelimit.identity.ClientRequest;

/**
 * An {@link HttpServletRequest} as the limiter reads it.
 */
final class ServletClientRequest implements ClientRequest {

	private static final boolean springSecurityPresent = ClassUtils.isPresent(
			"org.springframework.security.core.context.SecurityContextHolder",
			ServletClientRequest.class.getClassLoader());

	private final HttpServletRequest request;

	private final String path;

	ServletClientRequest(HttpServletRequest request, String path) {
		this.request = request;
		this.path = path;
	}

	@Override
	public String method() {
		return this.request.getMethod();
	}

	@Override
	public String path() {
		return this.path;
	}

	@Override
	public @Nullable String remoteAddress() {
		return this.request.getRemoteAddr();
	}

	@Override
	public @Nullable String header(String name) {
		return this.request.getHeader(name);
	}

	@Override
	public List<String> headers(String name) {
		Enumeration<String> values = this.request.getHeaders(name);
		if (!values.hasMoreElements()) {
			return List.of();
		}
		String first = values.nextElement();
		if (!values.hasMoreElements()) {
			// the usual case (one X-Forwarded-For, one Forwarded): no list to grow
			return Collections.singletonList(first);
		}
		List<String> all = new ArrayList<>(4);
		all.add(first);
		while (values.hasMoreElements()) {
			all.add(values.nextElement());
		}
		return all;
	}

	@Override
	public @Nullable Object principal() {
		if (springSecurityPresent) {
			// the security context holds the Authentication even when the request is not
			// wrapped
			Object authentication = SecurityPrincipal.current();
			if (authentication != null) {
				return authentication;
			}
		}
		return this.request.getUserPrincipal();
	}

	/**
	 * Keeps Spring Security types out of the outer class, which must load without them.
	 */
	private static final class SecurityPrincipal {

		static @Nullable Object current() {
			return SecurityContextHolder.getContext().getAuthentication();
		}

	}

}
