package io.github.ratelimit.sample;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The sample app's OpenAPI document over real HTTP: a limited operation lists its 429
 * with the rate-limit headers and the problem body, and the limits each tier has there;
 * an excluded one (the Actuator's health) lists none.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class SampleOpenApiDocumentTests {

	private static final JsonMapper json = JsonMapper.builder().build();

	@LocalServerPort
	int port;

	private JsonNode document;

	@BeforeEach
	void fetchTheDocument() {
		HttpResponse<String> response = Http.send("GET", "http://127.0.0.1:" + this.port + "/v3/api-docs");
		assertThat(response.statusCode()).isEqualTo(200);
		this.document = json.readTree(response.body());
	}

	@Test
	void reportListsItsTooManyRequestsWithHeadersAndProblemBody() {
		JsonNode tooMany = operation("/v1/analytics/report", "get").at("/responses/429");
		assertThat(names(tooMany.get("headers"))).containsExactlyInAnyOrder("RateLimit", "RateLimit-Policy",
				"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "RateLimit-Warning", "Retry-After");
		assertThat(tooMany.at("/content/application~1problem+json/schema/$ref").asString())
			.isEqualTo("#/components/schemas/RateLimitProblem");
		assertThat(names(this.document.at("/components/schemas/RateLimitProblem/properties"))).contains("type",
				"status", "violated-policies", "code", "scope", "group", "tier", "retry_after", "request_id");
		assertThat(this.document.at("/components/headers/Retry-After/schema/type").asString()).isEqualTo("integer");
	}

	@Test
	void reportListsTheLimitsOfEachTier() {
		JsonNode report = operation("/v1/analytics/report", "get");
		JsonNode limits = report.get("x-ratelimit");
		assertThat(limits.get("group").asString()).isEqualTo("analytics");
		assertThat(limits.get("cost").asLong()).isEqualTo(5);
		assertThat(names(limits.get("tiers"))).containsExactly("anonymous", "authenticated", "premium", "enterprise");
		assertThat(limits.at("/tiers/anonymous/ip/0").asString()).isEqualTo("20/1m, 200/1h");
		assertThat(limits.at("/tiers/premium/user/0").asString()).isEqualTo("300/1m, 3000/1h");
		assertThat(texts(limits.at("/tiers/premium/org"))).containsExactly("2000/1m, 20000/1h", "100000/month");
		assertThat(limits.at("/every-tier/backstop/ip/0").asString()).isEqualTo("6000/1m");
		assertThat(limits.at("/every-tier/inline/user-or-ip/0").asString()).isEqualTo("60/1h");
		assertThat(report.get("description").asString()).contains("| anonymous | ip | 20/1m, 200/1h |")
			.contains("| every tier | user, else ip (this operation's own) | 60/1h |");
	}

	@Test
	void blockedTierIsDocumentedAsForbidden() {
		JsonNode admin = operation("/v1/admin/stats", "get");
		assertThat(admin.at("/x-ratelimit/tiers/anonymous/ip/0").asString()).isEqualTo("0");
		assertThat(names(admin.get("responses"))).contains("200", "403", "429");
	}

	@Test
	void excludedOperationListsNone() {
		JsonNode health = operation("/actuator/health", "get");
		assertThat(health.has("x-ratelimit")).isFalse();
		assertThat(names(health.get("responses"))).doesNotContain("429", "403", "503");
		assertThat(health.at("/responses/200/headers").isMissingNode()).isTrue();
	}

	private JsonNode operation(String path, String method) {
		JsonNode operation = this.document.at("/paths").get(path).get(method);
		assertThat(operation).as(method + " " + path).isNotNull();
		return operation;
	}

	private static List<String> names(JsonNode object) {
		List<String> names = new ArrayList<>();
		object.propertyNames().forEach(names::add);
		return names;
	}

	private static List<String> texts(JsonNode array) {
		List<String> texts = new ArrayList<>();
		array.forEach((item) -> texts.add(item.asString()));
		return texts;
	}

}
