package io.github.ratelimit.identity;

import org.jspecify.annotations.Nullable;

/**
 * Reads the value of a key of the application's choosing from a request: limits of the
 * key count per value ({@code ratelimit.keys.<key>}). Name a bean of this type with
 * {@code ratelimit.keys.<key>.bean}; the header, path-variable and expression sources are
 * resolvers of this kind too.
 * <p>
 * The value is caller input unless the resolver took it from the verified identity: the
 * limiter hashes unusual or long values in store keys, so a value cannot reach another
 * caller's bucket, but it shows in the refusal's detail and in logs, so never answer a
 * secret (an API key, a session id).
 *
 * <pre class="code">
 * &#64;Bean
 * RequestKeyResolver regionKeyResolver() {
 *     return (request, identity) -&gt; regionOf(request.header("X-Forwarded-Host"));
 * }
 * </pre>
 */
@FunctionalInterface
public interface RequestKeyResolver {

	/**
	 * The request's value of the key.
	 * @param request the request; {@link ClientRequest#pathVariable(String)} answers the
	 * variables of the pattern that classified it
	 * @param identity the caller, as far as it was verified
	 * @return the value, or {@code null} or empty when the key's limits do not apply to
	 * the request
	 */
	@Nullable String resolve(ClientRequest request, Identity identity);

}
