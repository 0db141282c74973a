package io.github.ratelimit.identity;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * What the limiter reads of an HTTP request, without servlet or reactive types. The
 * adapters wrap their native request in one of these; custom
 * {@link io.github.ratelimit.identity.IdentityResolver}s read it.
 */
public interface ClientRequest {

	/** The HTTP method, upper case. */
	String method();

	/** The request path within the application (no context path, no query). */
	String path();

	/**
	 * The address of the TCP peer as a literal, or {@code null} when the server does not
	 * know it.
	 */
	@Nullable String remoteAddress();

	/** The first value of a header, or {@code null}. Names are case-insensitive. */
	@Nullable String header(String name);

	/** Every value (field line) of a header, in order; empty when absent. */
	List<String> headers(String name);

	/**
	 * The authenticated principal the web stack knows of (Spring Security's
	 * {@code Authentication} when present), or {@code null}.
	 */
	@Nullable Object principal();

	/**
	 * The value of a variable of the path pattern that classified the request
	 * ({@code repo} of {@code /v1/repos/{repo}/**}: a pattern of
	 * {@code ratelimit.groups}, or the mapping of a {@code @RateLimited} handler), or
	 * {@code null}. Only the request a {@link RequestKeyResolver} reads knows it.
	 * @param name the variable's name
	 * @return its value, or {@code null}
	 */
	default @Nullable String pathVariable(String name) {
		return null;
	}

}
