package io.github.ratelimit.web.servlet;

import java.io.IOException;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * A filter that runs on a request's own dispatch only. A forward or include within it,
 * its asynchronous dispatches and its error page are the same request, already decided
 * (its final status settles it), so they go on untouched, as {@link OncePerRequestFilter}
 * would let them, but for a forward or include within an error page or an asynchronous
 * dispatch, which it would run again. Without that filter's bookkeeping either: an
 * attribute set, read and removed on every request.
 */
abstract class OwnDispatchFilter extends OncePerRequestFilter {

	@Override
	public final void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
			throws ServletException, IOException {
		if (request.getDispatcherType() == DispatcherType.REQUEST && request instanceof HttpServletRequest httpRequest
				&& response instanceof HttpServletResponse httpResponse) {
			doFilterInternal(httpRequest, httpResponse, chain);
		}
		else {
			chain.doFilter(request, response);
		}
	}

}
