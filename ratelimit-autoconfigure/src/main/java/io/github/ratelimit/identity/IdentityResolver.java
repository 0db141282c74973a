package io.github.ratelimit.identity;

import org.jspecify.annotations.Nullable;

/**
 * Finds the verified caller of a request. Declare one as a bean to add your own source (a
 * session, a gateway header signed by your proxy, ...); beans are asked in
 * {@code @Order}, before the configured API keys and Spring Security. Only return a
 * caller whose credential you verified: the limiter trusts it.
 */
@FunctionalInterface
public interface IdentityResolver {

	/**
	 * Resolves the caller.
	 * @param request the request
	 * @return the caller's identity as its verified credential gives it, or {@code null}
	 * to let the next resolver decide (and in the end, the request is anonymous and
	 * limited by IP)
	 */
	@Nullable ResolvedIdentity resolve(ClientRequest request);

}
