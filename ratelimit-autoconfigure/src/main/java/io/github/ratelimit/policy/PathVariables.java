package io.github.ratelimit.policy;

import org.jspecify.annotations.Nullable;

/**
 * The path variables of the pattern that classified a request ({@code repo} of
 * {@code /v1/repos/{repo}/**}), read only when a key needs one: the web adapter extracts
 * them on first use.
 */
@FunctionalInterface
public interface PathVariables {

	/** A request whose classifying pattern has no variables. */
	PathVariables NONE = (name) -> null;

	/**
	 * The value of a path variable, decoded, or {@code null} when the pattern has none of
	 * that name.
	 * @param name the variable's name
	 * @return its value, or {@code null}
	 */
	@Nullable String get(String name);

}
