package io.github.ratelimit.identity;

import org.jspecify.annotations.Nullable;

/**
 * Names the account a login attempt tries, for login protection
 * ({@code ratelimit.login-protection}), where the built-in rules cannot: a login endpoint
 * that takes the user name in a header of its own, for example. Called before
 * authentication, on every request the protection looks at, so it must be cheap and must
 * not read the request body. Declare one as a bean.
 * <p>
 * The name is never stored: the limiter keeps a hash of it (trimmed, lower case).
 */
@FunctionalInterface
public interface LoginAccountResolver {

	/**
	 * The account the request tries.
	 * @param request the request, before authentication
	 * @return the user name tried, or {@code null} to leave it to the built-in rules
	 * (HTTP Basic's user name, the form login's user name parameter)
	 */
	@Nullable String account(ClientRequest request);

}
