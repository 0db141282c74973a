package io.github.ratelimit.web.servlet;

import jakarta.servlet.http.HttpServletRequest;
import org.springframework.http.server.PathContainer;
import org.springframework.http.server.RequestPath;

import io.github.ratelimit.web.RecentPaths;

/**
 * The path of a request within the application, parsed once per recent path
 * ({@link RecentPaths}): each of the servlet filters sees every request, and parsing the
 * same busy paths again on each of them costs more than finding them.
 */
final class ApplicationPaths {

	private final RecentPaths<PathContainer> recent = new RecentPaths<>();

	/**
	 * The path within the application. Without a context path that is the whole path,
	 * parsed without the request path that would parse the context path too.
	 * @param request the request
	 * @return the path
	 * @throws RuntimeException for a path that cannot be parsed
	 */
	PathContainer of(HttpServletRequest request) {
		String uri = request.getRequestURI();
		String contextPath = request.getContextPath();
		if (contextPath == null) {
			contextPath = "";
		}
		PathContainer known = this.recent.find(contextPath, uri);
		if (known != null) {
			return known;
		}
		PathContainer path = contextPath.isEmpty() ? PathContainer.parsePath(uri)
				: RequestPath.parse(uri, contextPath).pathWithinApplication();
		this.recent.remember(contextPath, uri, path);
		return path;
	}

}
