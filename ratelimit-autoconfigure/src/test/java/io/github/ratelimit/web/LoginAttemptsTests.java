package io.github.ratelimit.web;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.springframework.http.server.PathContainer;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;

import io.github.ratelimit.core.LoginAttempt;
import io.github.ratelimit.identity.LoginAccountResolver;
import io.github.ratelimit.test.TestRequest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which requests {@link LoginAttempts} takes for login attempts and which account each
 * tries: HTTP Basic names it, a bearer token does not, a malformed or oversized header is
 * still an attempt (counted per address), a form login names it by its parameter, a
 * {@link LoginAccountResolver} wins over both; and a form login's redirect to its failure
 * URL counts as a 401.
 */
class LoginAttemptsTests {

	private static final Function<String, @Nullable String> NO_FORM = (name) -> {
		throw new AssertionError("the form was read for a request that is no form login: " + name);
	};

	private final LoginAttempts attempts = attempts(null);

	private static LoginAttempts attempts(@Nullable LoginAccountResolver resolver) {
		return new LoginAttempts(pattern("/login"), "username", "/login?error", List.of(pattern("/api/login")),
				resolver);
	}

	private static PathPattern pattern(String pattern) {
		return PathPatternParser.defaultInstance.parse(pattern);
	}

	private static String basic(String credentials) {
		return "Basic " + Base64.getEncoder().encodeToString(credentials.getBytes(StandardCharsets.UTF_8));
	}

	private @Nullable LoginAttempt attempt(TestRequest request) {
		return attempt(this.attempts, request, NO_FORM);
	}

	private static @Nullable LoginAttempt attempt(LoginAttempts attempts, TestRequest request,
			Function<String, @Nullable String> form) {
		return attempts.attempt(request, PathContainer.parsePath(request.path()), form);
	}

	@Test
	void aRequestWithoutCredentialsThatIsNoFormLoginIsNoAttempt() {
		assertThat(attempt(TestRequest.get("/orders"))).isNull();
		assertThat(attempt(TestRequest.post("/orders"))).isNull();
		// other headers are not credentials
		assertThat(attempt(TestRequest.get("/orders").header("Cookie", "SESSION=abc"))).isNull();
	}

	@Test
	void httpBasicNamesTheAccount() {
		LoginAttempt attempt = attempt(TestRequest.get("/orders").header("Authorization", basic("alice:pw")));
		assertThat(attempt).isEqualTo(LoginAttempt.on("alice"));
		assertThat(attempt.account()).isNotNull();
		// a colon in the password does not end the user name early
		assertThat(attempt(TestRequest.get("/orders").header("Authorization", basic("alice:p:w:d"))))
			.isEqualTo(LoginAttempt.on("alice"));
	}

	@Test
	void theBasicSchemeIsCaseInsensitive() {
		String credentials = basic("alice:pw").substring("Basic ".length());
		assertThat(attempt(TestRequest.get("/orders").header("Authorization", "basic " + credentials)))
			.isEqualTo(LoginAttempt.on("alice"));
		assertThat(attempt(TestRequest.get("/orders").header("Authorization", "BASIC " + credentials)))
			.isEqualTo(LoginAttempt.on("alice"));
	}

	@Test
	void malformedBasicCredentialsAreStillAnAttemptOnNoAccount() {
		assertThat(attempt(TestRequest.get("/orders").header("Authorization", "Basic !!!not-base64!!!")))
			.isSameAs(LoginAttempt.ANONYMOUS);
		assertThat(attempt(TestRequest.get("/orders").header("Authorization", basic("alice-without-colon"))))
			.isSameAs(LoginAttempt.ANONYMOUS);
		assertThat(attempt(TestRequest.get("/orders").header("Authorization", basic(":pw"))))
			.isSameAs(LoginAttempt.ANONYMOUS);
		assertThat(attempt(TestRequest.get("/orders").header("Authorization", "Basic ")))
			.isSameAs(LoginAttempt.ANONYMOUS);
		assertThat(attempt(TestRequest.get("/orders").header("Authorization", "Basic")))
			.isSameAs(LoginAttempt.ANONYMOUS);
	}

	@Test
	void anOversizedBasicHeaderIsNotDecodedButStillAnAttempt() {
		// well-formed credentials for alice, but far longer than anybody's
		String header = basic("alice:" + "p".repeat(3800));
		assertThat(header.length()).isGreaterThan(5000);
		assertThat(attempt(TestRequest.get("/orders").header("Authorization", header)))
			.isSameAs(LoginAttempt.ANONYMOUS);
	}

	@Test
	void aBearerTokenIsAnAttemptThatNamesNoAccount() {
		LoginAttempt attempt = attempt(TestRequest.get("/orders").header("Authorization", "Bearer xyz"));
		assertThat(attempt).isNotNull();
		assertThat(attempt.account()).isNull();
	}

	@Test
	void aFormLoginNamesTheAccountByItsUsernameParameter() {
		List<String> asked = new ArrayList<>();
		Map<String, String> form = Map.of("username", " Alice ", "password", "secret");
		LoginAttempt attempt = attempt(this.attempts, TestRequest.post("/login"), (name) -> {
			asked.add(name);
			return form.get(name);
		});
		assertThat(attempt).isEqualTo(LoginAttempt.on("alice"));
		assertThat(asked).containsExactly("username");
		// a form login without the parameter is an attempt on no account
		assertThat(attempt(this.attempts, TestRequest.post("/login"), (name) -> null)).isSameAs(LoginAttempt.ANONYMOUS);
		assertThat(this.attempts.isFormLogin("POST", PathContainer.parsePath("/login"))).isTrue();
	}

	@Test
	void aGetOfTheLoginPageIsNoAttempt() {
		assertThat(attempt(TestRequest.get("/login"))).isNull();
		assertThat(this.attempts.isFormLogin("GET", PathContainer.parsePath("/login"))).isFalse();
		// nor is a POST elsewhere a form login
		assertThat(this.attempts.isFormLogin("POST", PathContainer.parsePath("/login/other"))).isFalse();
	}

	@Test
	void everyRequestToAConfiguredLoginPathIsAnAttempt() {
		assertThat(attempt(this.attempts, TestRequest.get("/api/login"), (name) -> null))
			.isSameAs(LoginAttempt.ANONYMOUS);
		assertThat(attempt(this.attempts, TestRequest.post("/api/login"), Map.of("username", "carol")::get))
			.isEqualTo(LoginAttempt.on("carol"));
		assertThat(attempt(TestRequest.get("/api/login/help"))).isNull();
		// a request to such a path is no form login: its redirects are not read as
		// failures
		assertThat(this.attempts.isFormLogin("POST", PathContainer.parsePath("/api/login"))).isFalse();
	}

	@Test
	void anAccountResolverThatNamesTheAccountWinsOverBasicAndTheForm() {
		LoginAttempts attempts = attempts((request) -> request.header("X-Login-User"));
		TestRequest request = TestRequest.post("/login")
			.header("Authorization", basic("alice:pw"))
			.header("X-Login-User", "bob");
		assertThat(attempt(attempts, request, Map.of("username", "carol")::get)).isEqualTo(LoginAttempt.on("bob"));
	}

	@Test
	void anAccountResolverThatNamesNoneFallsBackToTheBuiltInRules() {
		LoginAttempts attempts = attempts((request) -> request.header("X-Login-User"));
		assertThat(attempt(attempts, TestRequest.get("/orders").header("Authorization", basic("alice:pw")), NO_FORM))
			.isEqualTo(LoginAttempt.on("alice"));
		assertThat(attempt(attempts, TestRequest.post("/login"), Map.of("username", "carol")::get))
			.isEqualTo(LoginAttempt.on("carol"));
		// the resolver does not make a request without credentials an attempt
		assertThat(attempt(attempts, TestRequest.get("/orders").header("X-Login-User", "bob"), NO_FORM)).isNull();
	}

	@Test
	void aFormLoginsRedirectToTheFailureUrlCountsAsA401() {
		assertThat(this.attempts.outcome(true, 302, "/login?error")).isEqualTo(401);
		assertThat(this.attempts.outcome(true, 302, "http://host:8080/login?error")).isEqualTo(401);
		assertThat(this.attempts.outcome(true, 303, "/login?error")).isEqualTo(LoginAttempts.FORM_FAILURE_STATUS);
	}

	@Test
	void otherRedirectsAndStatusesCountAsThemselves() {
		// a successful form login redirects elsewhere
		assertThat(this.attempts.outcome(true, 302, "/")).isEqualTo(302);
		// another page whose path ends the same is no failure of this form
		assertThat(this.attempts.outcome(true, 302, "/admin/login?error")).isEqualTo(302);
		assertThat(this.attempts.outcome(true, 302, "/login?error=expired")).isEqualTo(302);
		// under a context path, made absolute by the container or not
		assertThat(this.attempts.outcome(true, 302, "/app/login?error", "/app")).isEqualTo(401);
		assertThat(this.attempts.outcome(true, 302, "https://example.com/app/login?error", "/app")).isEqualTo(401);
		assertThat(this.attempts.outcome(true, 302, "/other/login?error", "/app")).isEqualTo(302);
		assertThat(this.attempts.outcome(true, 302, null)).isEqualTo(302);
		// a request that was no form login is not read as one
		assertThat(this.attempts.outcome(false, 302, "/login?error")).isEqualTo(302);
		assertThat(this.attempts.outcome(false, 401, null)).isEqualTo(401);
		assertThat(this.attempts.outcome(true, 401, null)).isEqualTo(401);
		// only a redirect points to the failure URL
		assertThat(this.attempts.outcome(true, 200, "/login?error")).isEqualTo(200);
	}

}
