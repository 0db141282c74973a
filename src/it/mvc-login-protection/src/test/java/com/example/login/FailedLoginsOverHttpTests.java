package com.example.login;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A consumer app with HTTP Basic over a BCrypt password store and {@code ratelimit.login-protection.enabled}
 * alone: wrong passwords are refused before BCrypt runs once the address's budget is spent, the address is
 * banned when it keeps trying, and one account guessed from many addresses is throttled.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class FailedLoginsOverHttpTests {

	private final HttpClient client = HttpClient.newHttpClient();

	@LocalServerPort
	int port;

	@Autowired
	LoginApplication.CountingBCrypt bcrypt;

	// the loopback proxy is trusted: X-Forwarded-For gives each client its own address
	private HttpResponse<String> get(String address, String user, String password) throws Exception {
		String credentials = Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/api/whoami"))
			.header("Authorization", "Basic " + credentials)
			.header("X-Forwarded-For", address)
			.build();
		return this.client.send(request, HttpResponse.BodyHandlers.ofString());
	}

	@Test
	void wrongPasswordsAreRefusedBeforeBCryptRunsThenTheAddressIsBanned() throws Exception {
		int checks = this.bcrypt.checks();
		for (int i = 0; i < 10; i++) {
			assertThat(get("203.0.113.10", "alice", "wrong-" + i).statusCode()).isEqualTo(401);
		}
		HttpResponse<String> refused = get("203.0.113.10", "alice", "wrong");
		assertThat(refused.statusCode()).isEqualTo(429);
		assertThat(refused.headers().firstValue("Retry-After")).isPresent();
		assertThat(refused.body()).contains("\"code\":\"rate_limit_exceeded\"").contains("login-ip-failures");
		// spent for the right password too there; the third refusal bans the address
		assertThat(get("203.0.113.10", "alice", "secret").statusCode()).isEqualTo(429);
		assertThat(get("203.0.113.10", "alice", "secret").statusCode()).isEqualTo(429);
		HttpResponse<String> banned = get("203.0.113.10", "alice", "secret");
		assertThat(banned.statusCode()).isEqualTo(403);
		assertThat(banned.body()).contains("\"code\":\"banned\"");
		assertThat(this.bcrypt.checks() - checks).as("passwords checked").isEqualTo(10);
		HttpResponse<String> elsewhere = get("203.0.113.11", "alice", "secret");
		assertThat(elsewhere.statusCode()).isEqualTo(200);
		assertThat(elsewhere.body()).contains("alice");
	}

	@Test
	void oneAccountGuessedFromTwentyAddressesIsThrottled() throws Exception {
		for (int i = 0; i < 20; i++) {
			assertThat(get("198.51.100." + (i + 1), "bob", "guess-" + i).statusCode()).isEqualTo(401);
		}
		int checks = this.bcrypt.checks();
		HttpResponse<String> refused = get("198.51.100.100", "bob", "guess");
		assertThat(refused.statusCode()).isEqualTo(429);
		assertThat(refused.body()).contains("\"scope\":\"account\"").doesNotContain("bob");
		// bob himself waits too while his account is under attack
		assertThat(get("198.51.100.101", "bob", "bob-secret").statusCode()).isEqualTo(429);
		assertThat(this.bcrypt.checks()).as("passwords checked").isEqualTo(checks);
	}

	@Test
	void successfulLoginsAreNotCounted() throws Exception {
		for (int i = 0; i < 15; i++) {
			assertThat(get("203.0.113.20", "alice", "secret").statusCode()).isEqualTo(200);
		}
	}

}
