package io.github.ratelimit.keys;

import org.jspecify.annotations.Nullable;

import io.github.ratelimit.identity.ClientRequest;
import io.github.ratelimit.identity.Identity;
import io.github.ratelimit.identity.RequestKeyResolver;

/**
 * A key read from a variable of the path pattern that classified the request
 * ({@code ratelimit.keys.<key>.path-variable}): {@code repo} of
 * {@code /v1/repos/{repo}/**}, decoded. A request whose pattern lacks the variable is not
 * counted by the key's limits.
 */
public final class PathVariableKeyResolver implements RequestKeyResolver {

	private final String variable;

	/**
	 * Creates the resolver.
	 * @param variable the variable's name, as the pattern declares it
	 */
	public PathVariableKeyResolver(String variable) {
		if (variable.isBlank()) {
			throw new IllegalArgumentException("a path variable's name must not be blank");
		}
		this.variable = variable;
	}

	/** The variable's name. */
	public String variable() {
		return this.variable;
	}

	@Override
	public @Nullable String resolve(ClientRequest request, Identity identity) {
		return request.pathVariable(this.variable);
	}

	@Override
	public String toString() {
		return "path variable " + this.variable;
	}

}
