package com.example.secure;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class SecurityIdentityOverHttpTests {

	private final HttpClient client = HttpClient.newHttpClient();

	@LocalServerPort
	int port;

	private HttpResponse<String> get(String user) throws Exception {
		HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/api/whoami"));
		if (user != null) {
			String credentials = Base64.getEncoder().encodeToString((user + ":secret").getBytes(StandardCharsets.UTF_8));
			request.header("Authorization", "Basic " + credentials);
		}
		return this.client.send(request.build(), HttpResponse.BodyHandlers.ofString());
	}

	@Test
	void authenticatedUsersAreLimitedByUserAndTierFromTheirAuthorities() throws Exception {
		HttpResponse<String> alice = get("alice");
		assertThat(alice.statusCode()).isEqualTo(200);
		assertThat(alice.headers().firstValue("RateLimit-Policy").orElseThrow())
			.contains("\"premium-user-default\";q=5").contains("\"premium-org-default\";q=100");
		for (int i = 0; i < 4; i++) {
			assertThat(get("alice").statusCode()).isEqualTo(200);
		}
		HttpResponse<String> rejected = get("alice");
		assertThat(rejected.statusCode()).isEqualTo(429);
		assertThat(rejected.body()).contains("\"scope\":\"user\"").contains("for user 'alice'");

		// bob has no tier authority: the authenticated tier, his own budget
		HttpResponse<String> bob = get("bob");
		assertThat(bob.statusCode()).isEqualTo(200);
		assertThat(bob.headers().firstValue("RateLimit-Policy").orElseThrow()).contains("\"authenticated-user-default\";q=3");

		// anonymous callers share nothing with them
		assertThat(get(null).headers().firstValue("RateLimit-Policy").orElseThrow()).contains("\"anonymous-ip-default\";q=2");
	}

	@Test
	void wrongPasswordIsNotAnIdentity() throws Exception {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/api/whoami"))
			.header("Authorization", "Basic " + Base64.getEncoder().encodeToString("alice:wrong".getBytes(StandardCharsets.UTF_8)))
			.build();
		HttpResponse<String> response = this.client.send(request, HttpResponse.BodyHandlers.ofString());
		// Spring Security answers 401 before the limiter: a bad password never reaches a user's budget
		assertThat(response.statusCode()).isEqualTo(401);
		assertThat(response.headers().firstValue("RateLimit-Policy")).isEmpty();
	}

}
