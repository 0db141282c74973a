package com.example.login;

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
class FailedLoginsOverHttpTests {

	private final HttpClient client = HttpClient.newHttpClient();

	@LocalServerPort
	int port;

	// the loopback proxy is trusted: X-Forwarded-For gives each client its own address
	private HttpResponse<String> get(String address, String password) throws Exception {
		String credentials = Base64.getEncoder().encodeToString(("alice:" + password).getBytes(StandardCharsets.UTF_8));
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/api/whoami"))
			.header("Authorization", "Basic " + credentials)
			.header("X-Forwarded-For", address)
			.build();
		return this.client.send(request, HttpResponse.BodyHandlers.ofString());
	}

	@Test
	void wrongPasswordsAreRefusedPastTheBudgetAndTheRightPasswordFromElsewhereStillWorks() throws Exception {
		for (int i = 0; i < 3; i++) {
			assertThat(get("203.0.113.10", "wrong-" + i).statusCode()).isEqualTo(401);
		}
		HttpResponse<String> refused = get("203.0.113.10", "wrong");
		assertThat(refused.statusCode()).isEqualTo(429);
		assertThat(refused.headers().firstValue("Retry-After")).isPresent();
		assertThat(refused.body()).contains("\"code\":\"rate_limit_exceeded\"");
		// the budget is the address's: spent for the right password too there, not elsewhere
		assertThat(get("203.0.113.10", "secret").statusCode()).isEqualTo(429);
		HttpResponse<String> elsewhere = get("203.0.113.11", "secret");
		assertThat(elsewhere.statusCode()).isEqualTo(200);
		assertThat(elsewhere.body()).contains("alice");
	}

	@Test
	void successfulLoginsAreNotCounted() throws Exception {
		for (int i = 0; i < 6; i++) {
			assertThat(get("203.0.113.20", "secret").statusCode()).isEqualTo(200);
		}
	}

}
