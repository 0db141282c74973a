package io.github.ratelimit.sample;

import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.ActiveProfiles;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The 'ops' profile, in memory: the ratelimits endpoint answers only to the ops user
 * (reads as well as writes, since they list addresses and user names), health and the API
 * need no credentials.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@ActiveProfiles("ops")
class OpsProfileTests {

	private static final String[] OPS = Http.basic("ops", "ops-secret");

	private static final String OVERRIDE = "{\"dimension\":\"org\",\"id\":\"acme\",\"limit\":\"500/1m\"}";

	@LocalServerPort
	int port;

	private String url(String path) {
		return "http://127.0.0.1:" + this.port + path;
	}

	@Test
	void endpointNeedsTheOpsUser() {
		String[] wrong = Http.basic("ops", "guess");
		assertUnauthorized(Http.send("GET", url("/actuator/ratelimits")));
		assertUnauthorized(Http.send("GET", url("/actuator/ratelimits"), wrong));
		assertUnauthorized(Http.json("POST", url("/actuator/ratelimits/overrides"), OVERRIDE));
		assertUnauthorized(Http.json("POST", url("/actuator/ratelimits/overrides"), OVERRIDE, wrong));
		assertUnauthorized(Http.send("DELETE", url("/actuator/ratelimits/bans?subject=ip:203.0.113.9")));
		assertUnauthorized(Http.send("DELETE", url("/actuator/ratelimits/bans?subject=ip:203.0.113.9"), wrong));
		HttpResponse<String> read = Http.send("GET", url("/actuator/ratelimits"), OPS);
		assertThat(read.statusCode()).isEqualTo(200);
		assertThat(JsonMapper.builder().build().readTree(read.body()).get("refreshInterval").asString())
			.isEqualTo("PT1S");
		assertThat(Http.json("POST", url("/actuator/ratelimits/overrides"), OVERRIDE, OPS).statusCode()).isEqualTo(200);
	}

	private static void assertUnauthorized(HttpResponse<String> response) {
		assertThat(response.statusCode()).isEqualTo(401);
		assertThat(response.headers().firstValue("WWW-Authenticate"))
			.hasValueSatisfying((challenge) -> assertThat(challenge).startsWith("Basic"));
	}

	@Test
	void passwordGuessingOnTheEndpointIsRefusedPastTenFailuresFromOneAddress() {
		String guesser = "198.51.100.77";
		for (int i = 0; i < 10; i++) {
			HttpResponse<String> guess = Http.send("GET", url("/actuator/ratelimits"),
					withAddress(guesser, Http.basic("ops", "guess-" + i)));
			assertThat(guess.statusCode()).as("guess %d", i + 1).isEqualTo(401);
		}
		HttpResponse<String> refused = Http.send("GET", url("/actuator/ratelimits"),
				withAddress(guesser, Http.basic("ops", "guess")));
		assertThat(refused.statusCode()).isEqualTo(429);
		assertThat(refused.headers().firstValue("Retry-After")).isPresent();
		// the budget is spent for that address, whatever it sends; the operator elsewhere
		// is not affected
		assertThat(Http.send("GET", url("/actuator/ratelimits"), withAddress(guesser, OPS)).statusCode())
			.isEqualTo(429);
		assertThat(Http.send("GET", url("/actuator/ratelimits"), withAddress("198.51.100.78", OPS)).statusCode())
			.isEqualTo(200);
	}

	private static String[] withAddress(String address, String[] headers) {
		String[] all = new String[headers.length + 2];
		all[0] = "X-Forwarded-For";
		all[1] = address;
		System.arraycopy(headers, 0, all, 2, headers.length);
		return all;
	}

	@Test
	void badLimitIsRefusedWithTheStartupCheckMessage() {
		HttpResponse<String> response = Http.json("POST", url("/actuator/ratelimits/overrides"),
				"{\"dimension\":\"org\",\"id\":\"acme\",\"limit\":\"lots/1m\"}", OPS);
		assertThat(response.statusCode()).isEqualTo(400);
		JsonNode body = JsonMapper.builder().build().readTree(response.body());
		assertThat(body.get("error").asString()).startsWith("Invalid value 'lots/1m' for 'limit'");
		assertThat(body.get("property").asString()).isEqualTo("limit");
	}

	@Test
	void healthAndTheApiNeedNoCredentials() {
		assertThat(Http.send("GET", url("/actuator/health")).statusCode()).isEqualTo(200);
		HttpResponse<String> api = Http.send("GET", url("/v1/status"));
		assertThat(api.statusCode()).isEqualTo(200);
		assertThat(api.headers().firstValue("RateLimit")).isPresent();
		// Spring Security leaves the API alone: even bad credentials are not its business
		// there
		assertThat(Http.send("GET", url("/v1/status"), Http.basic("ops", "guess")).statusCode()).isEqualTo(200);
		assertThat(Http.send("POST", url("/v1/auth/login")).statusCode()).as("no CSRF token needed").isEqualTo(200);
	}

}
