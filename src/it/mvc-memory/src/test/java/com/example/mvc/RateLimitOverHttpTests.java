package com.example.mvc;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class RateLimitOverHttpTests {

	@LocalServerPort
	int port;

	@Test
	void fourthRequestInAMinuteIsRejectedWithProblemDetails() throws Exception {
		HttpClient client = HttpClient.newHttpClient();
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + this.port + "/api/hello")).build();
		for (int i = 0; i < 3; i++) {
			HttpResponse<String> ok = client.send(request, HttpResponse.BodyHandlers.ofString());
			assertThat(ok.statusCode()).isEqualTo(200);
			assertThat(ok.headers().firstValue("X-RateLimit-Remaining")).hasValue(String.valueOf(2 - i));
			assertThat(ok.headers().firstValue("RateLimit-Policy")).hasValue("\"anonymous-ip-api\";q=3;w=60");
		}
		HttpResponse<String> rejected = client.send(request, HttpResponse.BodyHandlers.ofString());
		assertThat(rejected.statusCode()).isEqualTo(429);
		assertThat(rejected.headers().firstValue("Content-Type")).hasValueSatisfying(
				(type) -> assertThat(type).startsWith("application/problem+json"));
		assertThat(Long.parseLong(rejected.headers().firstValue("Retry-After").orElseThrow())).isBetween(1L, 60L);
		assertThat(rejected.body()).contains("\"scope\":\"ip\"").contains("\"status\":429");
	}

}
