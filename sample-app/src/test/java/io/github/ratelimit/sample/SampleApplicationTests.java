package io.github.ratelimit.sample;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

import org.greenbytes.http.sfv.ListElement;
import org.greenbytes.http.sfv.NumberItem;
import org.greenbytes.http.sfv.OuterList;
import org.greenbytes.http.sfv.Parser;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.annotation.DirtiesContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample app over real HTTP, in memory. Loopback is NOT a trusted proxy here, so the
 * test client is an untrusted peer: whatever X-Forwarded-For it sends, it is 127.0.0.1.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
		properties = "ratelimit.identity.trusted-proxies=10.0.0.0/8")
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_EACH_TEST_METHOD)
class SampleApplicationTests {

	private static final JsonMapper json = JsonMapper.builder().build();

	@LocalServerPort
	int port;

	private String url(String path) {
		return "http://127.0.0.1:" + this.port + path;
	}

	/**
	 * 50 logins a minute refill a token every 1.2 s: the tests below count exactly only
	 * if their requests take less. A cold JVM's first request can take half of that, so
	 * it is made here, in another group.
	 */
	@BeforeEach
	void warmUp() {
		assertThat(Http.send("GET", url("/v1/status")).statusCode()).isEqualTo(200);
	}

	@Test
	void fiftyFirstAnonymousLoginInAMinuteIsRejected() {
		for (int i = 1; i <= 50; i++) {
			HttpResponse<String> response = Http.send("POST", url("/v1/auth/login"));
			assertThat(response.statusCode()).as("login %d", i).isEqualTo(200);
			OuterList rateLimit = Parser.parseList(response.headers().firstValue("RateLimit").orElseThrow());
			assertThat(param(rateLimit.get().get(0), "r")).isEqualTo(50 - i);
			assertPolicies(response);
			assertThat(response.headers().firstValue("X-RateLimit-Remaining")).hasValue(String.valueOf(50 - i));
		}
		HttpResponse<String> rejected = Http.send("POST", url("/v1/auth/login"));
		assertThat(rejected.statusCode()).isEqualTo(429);
		long retryAfter = Long.parseLong(rejected.headers().firstValue("Retry-After").orElseThrow());
		assertThat(retryAfter).isBetween(1L, 60L);
		assertThat(rejected.headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("application/problem+json"));
		assertThat(rejected.headers().firstValue("Cache-Control")).hasValue("no-store");
		OuterList rateLimit = Parser.parseList(rejected.headers().firstValue("RateLimit").orElseThrow());
		assertThat(rateLimit.get().get(0).get()).isEqualTo("anonymous-ip-auth-1m");
		assertThat(param(rateLimit.get().get(0), "r")).isZero();
		assertThat(param(rateLimit.get().get(0), "t")).isEqualTo(retryAfter);
		assertPolicies(rejected);
		JsonNode body = json.readTree(rejected.body());
		assertThat(body.get("status").asInt()).isEqualTo(429);
		assertThat(body.get("scope").asString()).isEqualTo("ip");
		assertThat(body.get("group").asString()).isEqualTo("auth");
		assertThat(body.get("tier").asString()).isEqualTo("anonymous");
		assertThat(body.get("retry_after").asLong()).isEqualTo(retryAfter);
		assertThat(body.get("violated-policies").get(0).asString()).isEqualTo("anonymous-ip-auth-1m");
		assertThat(body.get("request_id").asString())
			.isEqualTo(rejected.headers().firstValue("X-Request-Id").orElseThrow());
	}

	private static void assertPolicies(HttpResponse<String> response) {
		OuterList policies = Parser.parseList(response.headers().firstValue("RateLimit-Policy").orElseThrow());
		assertThat(policies.get()).extracting((element) -> (Object) element.get())
			.containsExactly("anonymous-ip-auth-1m", "anonymous-ip-auth-1h", "backstop-ip-default", "service-auth");
		assertThat(param(policies.get().get(0), "q")).isEqualTo(50);
		assertThat(param(policies.get().get(0), "w")).isEqualTo(60);
		assertThat(param(policies.get().get(1), "q")).isEqualTo(500);
		assertThat(param(policies.get().get(1), "w")).isEqualTo(3600);
	}

	private static long param(ListElement<?> element, String name) {
		return ((NumberItem<?>) element.getParams().get(name)).getAsLong();
	}

	@Test
	void spoofedForwardedForFromAnUntrustedPeerIsLimitedAsItsTcpAddress() {
		for (int i = 0; i < 50; i++) {
			assertThat(Http
				.send("POST", url("/v1/auth/login"), "X-Forwarded-For", randomIp(), "Forwarded", "for=" + randomIp())
				.statusCode()).isEqualTo(200);
		}
		HttpResponse<String> rejected = Http.send("POST", url("/v1/auth/login"), "X-Forwarded-For", randomIp());
		assertThat(rejected.statusCode()).isEqualTo(429);
		assertThat(rejected.body()).contains("127.0.0.1");
	}

	@Test
	void randomApiKeysAreLimitedAsAnonymous() {
		for (int i = 0; i < 50; i++) {
			HttpResponse<String> response = Http.send("POST", url("/v1/auth/login"), "X-API-Key",
					UUID.randomUUID().toString());
			assertThat(response.statusCode()).isEqualTo(200);
			assertThat(response.headers().firstValue("RateLimit-Policy").orElseThrow()).contains("anonymous-ip-auth");
		}
		HttpResponse<String> rejected = Http.send("POST", url("/v1/auth/login"), "X-API-Key", "demo-premium-keyX");
		assertThat(rejected.statusCode()).isEqualTo(429);
		assertThat(rejected.body()).contains("\"tier\":\"anonymous\"");
	}

	@Test
	void knownApiKeyGetsItsTierAndOrg() {
		HttpResponse<String> response = Http.send("GET", url("/v1/analytics/summary"), "X-API-Key", "demo-premium-key");
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("RateLimit-Policy").orElseThrow())
			.contains("premium-user-analytics-1m")
			.contains("premium-org-default-1m");
	}

	@Test
	void anonymousCallersAreBlockedFromAdmin() {
		HttpResponse<String> response = Http.send("GET", url("/v1/admin/stats"));
		assertThat(response.statusCode()).isEqualTo(403);
		assertThat(response.body()).contains("\"code\":\"tier_not_allowed\"");
		assertThat(Http.send("GET", url("/v1/admin/stats"), "X-API-Key", "demo-authenticated-key").statusCode())
			.isEqualTo(200);
	}

	@Test
	void annotatedReportCostsFiveTokens() {
		HttpResponse<String> response = Http.send("GET", url("/v1/analytics/report"));
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("X-RateLimit-Remaining")).hasValue("15");
		assertThat(response.headers().firstValue("RateLimit-Policy").orElseThrow())
			.contains("\"inline-ip-ApiController.report\";q=60;w=3600");
	}

	@Test
	void malformedHeadersNeverCauseAServerError() throws Exception {
		List<String> evil = List.of("X-Forwarded-For: not-an-ip, , ::::, 999.1.1.1, [::1]:x",
				"Forwarded: for=\"[::1\";;;proto=,for=", "X-API-Key: " + "x".repeat(6000),
				"X-Request-Id: abc\u00e9\u0001def", "X-API-Key: ", "Authorization: Bearer \u00ff\u00fe",
				"X-Forwarded-For: \u0000\u0000");
		for (String header : evil) {
			int status = Http.raw(this.port,
					"GET /v1/status HTTP/1.1\r\nHost: localhost\r\n" + header + "\r\nConnection: close\r\n\r\n");
			assertThat(status).as(header).isBetween(200, 499);
		}
	}

	@Test
	void withoutTheOpsProfileNoEndpointIsExposedAndNoSecurityApplies() {
		assertThat(Http.send("GET", url("/actuator/ratelimits")).statusCode()).isEqualTo(404);
		assertThat(Http.send("DELETE", url("/actuator/ratelimits/bans?subject=ip:127.0.0.1")).statusCode())
			.isEqualTo(404);
		// Spring Security is on the classpath (for 'ops') but off: credentials mean
		// nothing, no headers added
		HttpResponse<String> response = Http.send("GET", url("/v1/status"), Http.basic("user", "guess"));
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("X-Frame-Options")).isEmpty();
		assertThat(response.headers().firstValue("Cache-Control")).isEmpty();
	}

	private static String randomIp() {
		ThreadLocalRandom random = ThreadLocalRandom.current();
		return random.nextInt(1, 224) + "." + random.nextInt(256) + "." + random.nextInt(256) + "."
				+ random.nextInt(1, 255);
	}

}
