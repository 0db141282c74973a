package io.github.ratelimit.keys;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.springframework.expression.EvaluationException;

import io.github.ratelimit.identity.Identity;
import io.github.ratelimit.test.TestRequest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The header, path-variable and expression sources of keys: what each reads, and that an
 * expression can read the request and the caller but never run code.
 */
class KeyResolversTests {

	private static final Identity ALICE = new Identity("alice", "acme", null, "203.0.113.7", "premium", true);

	private static final Identity ANONYMOUS = Identity.anonymous("198.51.100.9", "anonymous");

	@Test
	void headerKeyIsTheFirstValueTrimmedWhateverTheCaseOfItsName() {
		HeaderKeyResolver tenant = new HeaderKeyResolver("X-Tenant-Id");
		TestRequest request = TestRequest.get("/").header("x-tenant-id", " t-1 ").header("X-Tenant-Id", "t-2");
		assertThat(tenant.resolve(request, ANONYMOUS)).isEqualTo("t-1");
		assertThat(tenant.resolve(TestRequest.get("/"), ANONYMOUS)).isNull();
	}

	@Test
	void pathVariableKeyIsTheVariableOfTheClassifyingPattern() {
		PathVariableKeyResolver repo = new PathVariableKeyResolver("repo");
		assertThat(repo.resolve(
				TestRequest.get("/v1/repos/acme-app/issues").pathVariables(Map.of("repo", "acme-app", "owner", "acme")),
				ANONYMOUS))
			.isEqualTo("acme-app");
		assertThat(repo.resolve(TestRequest.get("/v1/other").pathVariables(Map.of("id", "7")), ANONYMOUS)).isNull();
	}

	@Test
	void expressionReadsTheRequestAndTheCaller() {
		TestRequest request = TestRequest.post("/v1/repos/app")
			.header("X-Product", "search")
			.pathVariables(Map.of("repo", "app"));
		assertThat(resolve("request.header('X-Product')", request, ANONYMOUS)).isEqualTo("search");
		assertThat(resolve("request.method + ' ' + request.path", request, ANONYMOUS)).isEqualTo("POST /v1/repos/app");
		assertThat(resolve("request.pathVariable('repo')", request, ANONYMOUS)).isEqualTo("app");
		assertThat(resolve("identity.org ?: request.header('X-Product')", request, ALICE)).isEqualTo("acme");
		assertThat(resolve("identity.org ?: request.header('X-Product')", request, ANONYMOUS)).isEqualTo("search");
		assertThat(resolve("identity.authenticated ? identity.user : identity.ip", request, ANONYMOUS))
			.isEqualTo("198.51.100.9");
		assertThat(resolve("identity.tier", request, ALICE)).isEqualTo("premium");
		assertThat(resolve("request.header('X-Missing')?.toLowerCase()", request, ALICE)).isNull();
	}

	@Test
	void expressionsThatNameATypeAConstructorOrABeanNeverParse() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new ExpressionKeyResolver("T(java.lang.Runtime).getRuntime().exec('touch /tmp/x')"))
			.withMessageContaining("type reference");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new ExpressionKeyResolver("new java.io.File('/tmp/x').delete()"))
			.withMessageContaining("constructor");
		assertThatIllegalArgumentException().isThrownBy(() -> new ExpressionKeyResolver("@dataSource.connection"))
			.withMessageContaining("bean reference");
		assertThatIllegalArgumentException().isThrownBy(() -> new ExpressionKeyResolver("#exit(1)"))
			.withMessageContaining("function");
		assertThatIllegalArgumentException().isThrownBy(() -> new ExpressionKeyResolver("identity.user = 'root'"))
			.withMessageContaining("assignment");
		assertThatIllegalArgumentException().isThrownBy(() -> new ExpressionKeyResolver("request.header('X'"))
			.withMessageContaining("position");
	}

	@Test
	void noEvaluationReachesAClassOrTheRequestBehindTheView() {
		TestRequest request = TestRequest.get("/").header("X-Product", "java.lang.Runtime").principal("secret");
		// from a caller's value to a class, and from there to anything: refused by the
		// context, not only by the parse-time check
		assertThatExceptionOfType(EvaluationException.class)
			.isThrownBy(() -> resolve("request.header('X-Product').getClass().forName(request.header('X-Product'))",
					request, ANONYMOUS));
		assertThatExceptionOfType(EvaluationException.class)
			.isThrownBy(() -> resolve("request.principal", request, ANONYMOUS));
		assertThatExceptionOfType(EvaluationException.class)
			.isThrownBy(() -> resolve("request.request.principal()", request, ANONYMOUS));
	}

	@Test
	void callerInputIsReadAsDataNeverAsAnExpression() {
		TestRequest request = TestRequest.get("/").header("X-Product", "T(java.lang.Runtime).getRuntime()");
		assertThat(resolve("request.header('X-Product')", request, ANONYMOUS))
			.isEqualTo("T(java.lang.Runtime).getRuntime()");
	}

	private static String resolve(String expression, TestRequest request, Identity identity) {
		return new ExpressionKeyResolver(expression).resolve(request, identity);
	}

}
