package io.github.ratelimit.web;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;
import org.springframework.http.server.PathContainer;
import org.springframework.util.Assert;
import org.springframework.web.util.pattern.PathPattern;

import io.github.ratelimit.core.LoginAttempt;
import io.github.ratelimit.identity.ClientRequest;
import io.github.ratelimit.identity.LoginAccountResolver;

/**
 * Which requests are login attempts, for both web stacks: a request that presents
 * credentials in an {@code Authorization} header (HTTP Basic names the account; a bearer
 * token names none), a POST to the form login's path, or a request to one of the
 * configured login paths. The account comes from a {@link LoginAccountResolver} when one
 * names it, else from HTTP Basic, else from the form's user name parameter.
 * <p>
 * A form login answers a failure with a redirect, not a 401: {@link #outcome} reads a
 * redirect to the form's failure URL as a 401, so that failed form logins count like
 * failed HTTP Basic ones.
 */
public final class LoginAttempts {

	/** The status a failed form login counts as. */
	public static final int FORM_FAILURE_STATUS = 401;

	private final PathPattern formPath;

	private final String usernameParameter;

	private final String failureUrl;

	private final List<PathPattern> paths;

	private final @Nullable LoginAccountResolver resolver;

	/**
	 * Creates the rules.
	 * @param formPath the path form logins are posted to ({@code /login})
	 * @param usernameParameter the form's user name parameter ({@code username})
	 * @param failureUrl where a failed form login redirects to ({@code /login?error})
	 * @param paths more paths whose every request is a login attempt
	 * @param resolver names the account where the built-in rules cannot, or {@code null}
	 */
	public LoginAttempts(PathPattern formPath, String usernameParameter, String failureUrl, List<PathPattern> paths,
			@Nullable LoginAccountResolver resolver) {
		Assert.hasText(usernameParameter, "'usernameParameter' must not be empty");
		Assert.hasText(failureUrl, "'failureUrl' must not be empty");
		this.formPath = formPath;
		this.usernameParameter = usernameParameter;
		this.failureUrl = failureUrl;
		this.paths = List.copyOf(paths);
		this.resolver = resolver;
	}

	/** Whether a request is a form login: a POST to the form's path. */
	public boolean isFormLogin(String method, PathContainer path) {
		return "POST".equals(method) && this.formPath.matches(path);
	}

	/**
	 * Whether a request's form parameters may name the account: a form login or a
	 * configured login path.
	 */
	public boolean readsForm(String method, PathContainer path) {
		return isFormLogin(method, path) || matchesPath(path);
	}

	/** The form's user name parameter. */
	public String usernameParameter() {
		return this.usernameParameter;
	}

	/**
	 * The attempt a request makes.
	 * @param request the request
	 * @param path its path within the application
	 * @param formParameter reads a form parameter of the request (asked only when
	 * {@link #readsForm}), giving {@code null} when absent
	 * @return the attempt, or {@code null} when the request presents no credentials
	 */
	public @Nullable LoginAttempt attempt(ClientRequest request, PathContainer path,
			Function<String, @Nullable String> formParameter) {
		String authorization = request.header("Authorization");
		boolean form = readsForm(request.method(), path);
		if (authorization == null && !form) {
			return null;
		}
		String account = (this.resolver != null) ? this.resolver.account(request) : null;
		if (account == null && authorization != null) {
			account = basicUser(authorization);
		}
		if (account == null && form) {
			account = formParameter.apply(this.usernameParameter);
		}
		return LoginAttempt.on(account);
	}

	/**
	 * The final status an attempt counts as: its own, except a form login's redirect to
	 * the failure URL, which counts as {@value #FORM_FAILURE_STATUS}.
	 * @param formLogin whether the attempt was a form login
	 * @param status the response's status
	 * @param location the response's {@code Location} header, or {@code null}
	 */
	public int outcome(boolean formLogin, int status, @Nullable String location) {
		return outcome(formLogin, status, location, "");
	}

	/**
	 * The final status an attempt counts as, in an application under a context path.
	 * @param formLogin whether the attempt was a form login
	 * @param status the response's status
	 * @param location the response's {@code Location} header, or {@code null}
	 * @param contextPath the application's context path ({@code ""} for none)
	 */
	public int outcome(boolean formLogin, int status, @Nullable String location, String contextPath) {
		if (formLogin && status >= 300 && status < 400 && location != null && isFailureUrl(location, contextPath)) {
			return FORM_FAILURE_STATUS;
		}
		return status;
	}

	// "/login?error", with the context path, made absolute or not by the container
	// ("http://host:8080/ctx/login?error"); "/admin/login?error" is another page
	private boolean isFailureUrl(String location, String contextPath) {
		if (this.failureUrl.contains("://")) {
			return location.equals(this.failureUrl);
		}
		String target = location;
		int scheme = target.indexOf("://");
		if (scheme > 0) {
			int path = target.indexOf('/', scheme + 3);
			target = (path >= 0) ? target.substring(path) : "/";
		}
		String failure = this.failureUrl;
		if (!failure.startsWith("/")) {
			return target.endsWith("/" + failure) || target.equals(failure);
		}
		return target.equals(contextPath + failure) || target.equals(failure);
	}

	private boolean matchesPath(PathContainer path) {
		for (PathPattern pattern : this.paths) {
			if (pattern.matches(path)) {
				return true;
			}
		}
		return false;
	}

	/**
	 * The user name of HTTP Basic credentials, or {@code null} for another scheme or a
	 * malformed header.
	 */
	static @Nullable String basicUser(String authorization) {
		if (authorization.length() < 6 || !authorization.regionMatches(true, 0, "Basic ", 0, 6)) {
			return null;
		}
		String encoded = authorization.substring(6).strip();
		// credentials longer than this are nobody's: do not decode megabytes before
		// authentication
		if (encoded.isEmpty() || encoded.length() > 4096) {
			return null;
		}
		try {
			String decoded = new String(Base64.getDecoder().decode(encoded), StandardCharsets.UTF_8);
			int colon = decoded.indexOf(':');
			return (colon > 0) ? decoded.substring(0, colon) : null;
		}
		catch (IllegalArgumentException ex) {
			return null;
		}
	}

}
