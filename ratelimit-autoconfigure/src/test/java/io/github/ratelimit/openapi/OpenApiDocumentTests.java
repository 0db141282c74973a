package io.github.ratelimit.openapi;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springdoc.core.service.OpenAPIService;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The OpenAPI document springdoc serves over HTTP, on each stack: a limited operation
 * lists its 429 with the headers and problem body and its limits per tier; excluded ones
 * list none.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class OpenApiDocumentTests {

	private final WebApplicationType type;

	private ConfigurableApplicationContext context;

	private JsonNode document;

	OpenApiDocumentTests(WebApplicationType type) {
		this.type = type;
	}

	@BeforeAll
	void startAndFetchTheDocument() throws IOException, InterruptedException {
		List<String> args = new ArrayList<>(List.of(OpenApiDocumentApplication.PROPERTIES));
		args.add("--server.port=0");
		this.context = new SpringApplicationBuilder(OpenApiDocumentApplication.class).web(this.type)
			.run(args.toArray(String[]::new));
		awaitPreloadedDocument();
		int port = ((WebServerApplicationContext) this.context).getWebServer().getPort();
		HttpResponse<String> response = HttpClient.newHttpClient()
			.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v3/api-docs")).build(),
					HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(200);
		this.document = JsonMapper.builder().build().readTree(response.body());
	}

	/**
	 * Waits until springdoc has built the document at startup, so that the request reads
	 * it and builds nothing (the reactive behaviour tests install BlockHound for the rest
	 * of the JVM).
	 */
	private void awaitPreloadedDocument() {
		OpenAPIService documents = this.context.getBean(OpenAPIService.class);
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
		while (documents.getCachedOpenAPI(Locale.getDefault()) == null) {
			assertThat(System.nanoTime()).as("springdoc built the document at startup").isLessThan(deadline);
			LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
		}
	}

	@AfterAll
	void stop() {
		this.context.close();
	}

	@Test
	void limitedOperationListsItsTooManyRequestsWithHeadersAndProblemBody() {
		JsonNode tooMany = operation("/v1/reports/{id}").at("/responses/429");
		assertThat(names(tooMany.get("headers"))).containsExactlyInAnyOrder("RateLimit", "RateLimit-Policy",
				"X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "RateLimit-Warning", "Retry-After");
		assertThat(tooMany.at("/headers/Retry-After/$ref").asString()).isEqualTo("#/components/headers/Retry-After");
		assertThat(this.document.at("/components/headers/Retry-After/schema/type").asString()).isEqualTo("integer");
		assertThat(tooMany.at("/content/application~1problem+json/schema/$ref").asString())
			.isEqualTo("#/components/schemas/RateLimitProblem");
		JsonNode problem = this.document.at("/components/schemas/RateLimitProblem");
		assertThat(names(problem.get("properties"))).contains("type", "title", "status", "detail", "violated-policies",
				"code", "retry_after", "reset_at", "request_id");
		assertThat(names(operation("/v1/reports/{id}").at("/responses/200/headers"))).contains("RateLimit",
				"X-RateLimit-Remaining");
	}

	@Test
	void limitedOperationListsTheLimitsOfEachTier() {
		JsonNode limits = operation("/v1/reports/{id}").get("x-ratelimit");
		assertThat(limits.get("group").asString()).isEqualTo("reports");
		assertThat(limits.get("cost").asLong()).isEqualTo(5);
		assertThat(limits.at("/tiers/anonymous/ip/0").asString()).isEqualTo("10/1m");
		assertThat(limits.at("/tiers/premium/user/0").asString()).isEqualTo("100/1h");
		assertThat(limits.at("/every-tier/backstop/ip/0").asString()).isEqualTo("600/1m");
		assertThat(limits.at("/every-tier/inline/user-or-ip/0").asString()).isEqualTo("60/1h");
		assertThat(operation("/v1/reports/{id}").get("description").asString()).contains("| anonymous | ip | 10/1m |")
			.contains("| premium | user | 100/1h |");
	}

	@Test
	void excludedOperationsListNone() {
		for (String path : List.of("/internal/status", "/v1/ping")) {
			JsonNode operation = operation(path);
			assertThat(operation.has("x-ratelimit")).as(path).isFalse();
			assertThat(names(operation.get("responses"))).as(path).containsExactly("200");
			assertThat(operation.at("/responses/200/headers").isMissingNode()).as(path).isTrue();
		}
	}

	private JsonNode operation(String path) {
		JsonNode operation = this.document.get("paths").get(path).get("get");
		assertThat(operation).as(path).isNotNull();
		return operation;
	}

	private static List<String> names(JsonNode object) {
		List<String> names = new ArrayList<>();
		object.propertyNames().forEach(names::add);
		return names;
	}

}
