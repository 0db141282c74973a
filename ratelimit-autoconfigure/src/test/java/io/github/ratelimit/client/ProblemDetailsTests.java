package io.github.ratelimit.client;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The problem members a caller acts on, read from what our server writes and from bodies
 * of other servers, tolerantly.
 */
class ProblemDetailsTests {

	@Test
	void readsTheProblemOurServerWrites() {
		byte[] body = ServerResponses.body(ServerResponses.orgRefusal(8));

		ProblemDetails problem = ProblemDetails.parse(body, "application/problem+json");

		assertThat(problem).isNotNull();
		assertThat(problem.code()).isEqualTo("rate_limit_exceeded");
		assertThat(problem.scope()).isEqualTo("org");
		assertThat(problem.policy()).isEqualTo("100;w=60");
		assertThat(problem.requestId()).isEqualTo("7f9c2b1e4d");
		assertThat(problem.detail()).startsWith("Request rate exceeded for org 'acme'.");
	}

	@Test
	void takesTheViolatedPolicyWhenThereIsNoPolicyMember() {
		ProblemDetails problem = parse("{\"violated-policies\": [\"burst\", \"daily\"], \"status\": 429}",
				"application/json;charset=UTF-8");

		assertThat(problem).isEqualTo(new ProblemDetails(null, null, "burst", null, null));
	}

	@Test
	void skipsMembersItDoesNotNeedWhateverTheirShape() {
		ProblemDetails problem = parse("""
				{ "type": "about:blank", "status": 429, "ok": false, "nothing": null, "ratio": -1.5e3,
				  "nested": {"scope": "not this one", "list": [1, {"a": [true]}, "x"]}, "tags": [1, 2],
				  "scope": "user", "requestId": "abc", "message": "Slow down \\u00e9\\n" }
				""", null);

		assertThat(problem).isEqualTo(new ProblemDetails(null, "user", null, "abc", "Slow down \u00e9\n"));
	}

	@Test
	void ignoresBodiesThatAreNotJsonProblems() {
		assertThat(parse("<html>Too Many Requests</html>", "text/html")).isNull();
		assertThat(parse("{\"scope\": \"org\"}", "text/plain")).as("not JSON by its type").isNull();
		assertThat(parse("Too Many Requests", null)).isNull();
		assertThat(parse("{\"scope\": \"org\"", "application/json")).as("truncated").isNull();
		assertThat(parse("{\"scope\": \"org\"} trailing", "application/json")).isNull();
		assertThat(parse("{\"title\": \"Too Many Requests\"}", "application/json")).as("no member we use").isNull();
		assertThat(parse("[" + "[".repeat(100) + "]".repeat(100) + "]", "application/json")).isNull();
		assertThat(parse("{\"a\": " + "[".repeat(100) + "]".repeat(100) + ", \"scope\": \"org\"}", "application/json"))
			.as("nested too deep")
			.isNull();
		assertThat(ProblemDetails.parse(null, "application/json")).isNull();
		assertThat(ProblemDetails.parse(new byte[0], "application/json")).isNull();
	}

	@Test
	void ignoresBodiesLargerThan64KiB() {
		String padding = " ".repeat(ProblemDetails.MAX_BODY_BYTES);

		assertThat(parse("{\"scope\": \"org\"}" + padding, "application/problem+json")).isNull();
		assertThat(parse("{\"scope\": \"org\"}", "application/problem+json")).isNotNull();
	}

	private static ProblemDetails parse(String body, String contentType) {
		return ProblemDetails.parse(body.getBytes(StandardCharsets.UTF_8), contentType);
	}

}
