package io.github.ratelimit.openapi;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;

import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.Operation;
import io.swagger.v3.oas.models.PathItem;
import io.swagger.v3.oas.models.Paths;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.responses.ApiResponses;
import org.junit.jupiter.api.Test;

import io.github.ratelimit.control.AccessRule;
import io.github.ratelimit.control.BanRules;
import io.github.ratelimit.control.RuntimeControl;
import io.github.ratelimit.core.Decision;
import io.github.ratelimit.core.FailureMode;
import io.github.ratelimit.http.HeaderStyle;
import io.github.ratelimit.http.ProblemDetailsBodyWriter;
import io.github.ratelimit.http.RateLimitHeaders;
import io.github.ratelimit.http.RejectionBodyWriter;
import io.github.ratelimit.policy.PolicyRegistry;
import io.github.ratelimit.storage.memory.InMemoryControlStore;
import io.github.ratelimit.web.EndpointClassifier;
import io.github.ratelimit.web.EndpointRules;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The customizer on a document model: limited operations get their refusals, headers and
 * limits; excluded ones nothing.
 */
class RateLimitOpenApiCustomizerTests {

	private final EndpointClassifier classifier = new EndpointClassifier(
			EndpointRules.exclusions(List.of("/actuator/**")),
			EndpointRules.group("ratelimit.groups.reports", "reports", List.of("/v1/reports/**"), List.of(), 5),
			List::of);

	@Test
	void limitedOperationDocumentsItsRefusalHeadersAndLimits() {
		OpenAPI openApi = document();
		customizer(List.of(), BanRules.NONE, new ProblemDetailsBodyWriter(), FailureMode.LOCAL).customise(openApi);
		Operation report = openApi.getPaths().get("/v1/reports/{id}").getGet();
		assertThat(report.getExtensions()).containsEntry("x-ratelimit",
				Map.of("group", "reports", "cost", 5L, "tiers",
						Map.of("anonymous", Map.of("ip", List.of("10/1m")), "premium",
								Map.of("user", List.of("100/1h"), "org", List.of("100000/month"))),
						"every-tier", Map.of("backstop", Map.of("ip", List.of("600/1m")))));
		assertThat(report.getDescription()).startsWith("A report.\n\n**Rate limits** (group `reports`, 5 tokens")
			.contains("| anonymous | ip | 10/1m |");
		ApiResponse tooMany = report.getResponses().get("429");
		assertThat(tooMany.getHeaders()).containsOnlyKeys("RateLimit", "RateLimit-Policy", "X-RateLimit-Limit",
				"X-RateLimit-Remaining", "X-RateLimit-Reset", "RateLimit-Warning", "Retry-After");
		assertThat(tooMany.getContent().get("application/problem+json").getSchema().get$ref())
			.isEqualTo("#/components/schemas/RateLimitProblem");
		assertThat(report.getResponses().get("200").getHeaders()).containsKeys("RateLimit", "X-RateLimit-Remaining")
			.doesNotContainKey("Retry-After");
		assertThat(report.getResponses()).doesNotContainKeys("403", "503");
		assertThat(openApi.getComponents().getSchemas().get("RateLimitProblem").getProperties()).containsKeys("type",
				"violated-policies", "code", "retry_after", "request_id");
		assertThat(openApi.getComponents().getHeaders()).containsKeys("Retry-After", "RateLimit");
	}

	@Test
	void excludedOperationIsLeftAsItIs() {
		OpenAPI openApi = document();
		customizer(List.of(), BanRules.NONE, new ProblemDetailsBodyWriter(), FailureMode.CLOSED).customise(openApi);
		Operation health = openApi.getPaths().get("/actuator/health").getGet();
		assertThat(health.getExtensions()).isNull();
		assertThat(health.getDescription()).isNull();
		assertThat(health.getResponses()).containsOnlyKeys("200");
		assertThat(health.getResponses().get("200").getHeaders()).isNull();
	}

	@Test
	void denyRulesAndClosedFailureModeAreDocumented() {
		OpenAPI openApi = document();
		customizer(List.of(AccessRule.parse(AccessRule.Access.DENY, "192.0.2.0/24")), BanRules.NONE,
				new ProblemDetailsBodyWriter(), FailureMode.CLOSED)
			.customise(openApi);
		Operation admin = openApi.getPaths().get("/v1/admin").getPost();
		assertThat(admin.getResponses()).containsKeys("429", "403", "503");
		assertThat(admin.getResponses().get("403").getHeaders()).as("no ban rule, no Retry-After").isNull();
		assertThat(admin.getResponses().get("503").getHeaders()).containsOnlyKeys("Retry-After");
		assertThat(openApi.getPaths().get("/v1/reports/{id}").getGet().getResponses()).as("deny rules refuse anywhere")
			.containsKey("403");
	}

	@Test
	void banRuleDocumentsA403ThatSaysWhenToRetry() {
		OpenAPI openApi = document();
		customizer(List.of(), new BanRules(new BanRules.Settings(3, null, null, null, null), Map.of(), Map.of()),
				new ProblemDetailsBodyWriter(), FailureMode.LOCAL)
			.customise(openApi);
		ApiResponse forbidden = openApi.getPaths().get("/v1/reports/{id}").getGet().getResponses().get("403");
		assertThat(forbidden.getHeaders()).containsOnlyKeys("Retry-After");
		assertThat(openApi.getPaths().get("/v1/admin").getPost().getResponses()).as("a ban refuses everywhere")
			.containsKey("403");
		assertThat(openApi.getPaths().get("/actuator/health").getGet().getResponses()).containsOnlyKeys("200");
	}

	@Test
	void ownBodyWriterIsDocumentedByItsContentTypeWithoutOurSchema() {
		OpenAPI openApi = document();
		RejectionBodyWriter own = new RejectionBodyWriter() {

			@Override
			public String contentType() {
				return "application/vnd.acme.error+json";
			}

			@Override
			public byte[] write(Decision.Refusal refusal, String requestId) {
				return new byte[0];
			}

		};
		customizer(List.of(), BanRules.NONE, own, FailureMode.LOCAL).customise(openApi);
		ApiResponse tooMany = openApi.getPaths().get("/v1/reports/{id}").getGet().getResponses().get("429");
		assertThat(tooMany.getContent()).containsOnlyKeys("application/vnd.acme.error+json");
		assertThat(openApi.getComponents().getSchemas()).isNull();
	}

	@Test
	void applicationsOwn429Wins() {
		OpenAPI openApi = document();
		ApiResponse own = new ApiResponse().description("Slow down");
		openApi.getPaths().get("/v1/reports/{id}").getGet().getResponses().addApiResponse("429", own);
		customizer(List.of(), BanRules.NONE, new ProblemDetailsBodyWriter(), FailureMode.LOCAL).customise(openApi);
		assertThat(openApi.getPaths().get("/v1/reports/{id}").getGet().getResponses().get("429")).isSameAs(own);
	}

	@Test
	void documentBuiltTwiceIsDocumentedOnce() {
		OpenAPI openApi = document();
		RateLimitOpenApiCustomizer customizer = customizer(List.of(), BanRules.NONE, new ProblemDetailsBodyWriter(),
				FailureMode.LOCAL);
		customizer.customise(openApi);
		String description = openApi.getPaths().get("/v1/reports/{id}").getGet().getDescription();
		customizer.customise(openApi);
		assertThat(openApi.getPaths().get("/v1/reports/{id}").getGet().getDescription()).isEqualTo(description);
	}

	@Test
	void documentBuiltWhileTheApplicationStartsWaitsForTheHandlerMappings() throws InterruptedException {
		AtomicBoolean started = new AtomicBoolean();
		AtomicBoolean readBeforeStart = new AtomicBoolean();
		EndpointClassifier classifier = new EndpointClassifier(List.of(), List.of(), () -> {
			readBeforeStart.compareAndSet(false, !started.get());
			return List.of();
		});
		RateLimitOpenApiCustomizer customizer = unstarted(classifier, List.of(), BanRules.NONE,
				new ProblemDetailsBodyWriter(), FailureMode.LOCAL);
		OpenAPI openApi = document();
		// as springdoc's pre-loading does, on a thread of its own
		Thread preloading = new Thread(() -> customizer.customise(openApi));
		preloading.start();
		while (preloading.getState() != Thread.State.TIMED_WAITING
				&& preloading.getState() != Thread.State.TERMINATED) {
			Thread.onSpinWait();
		}
		started.set(true);
		customizer.afterSingletonsInstantiated();
		preloading.join();
		assertThat(readBeforeStart).isFalse();
		assertThat(openApi.getPaths().get("/v1/reports/{id}").getGet().getResponses()).containsKey("429");
	}

	private RateLimitOpenApiCustomizer customizer(List<AccessRule> rules, BanRules bans, RejectionBodyWriter body,
			FailureMode failureMode) {
		RateLimitOpenApiCustomizer customizer = unstarted(this.classifier, rules, bans, body, failureMode);
		customizer.afterSingletonsInstantiated();
		return customizer;
	}

	private static RateLimitOpenApiCustomizer unstarted(EndpointClassifier classifier, List<AccessRule> rules,
			BanRules bans, RejectionBodyWriter body, FailureMode failureMode) {
		PolicyRegistry registry = new PolicyRegistry(OperationLimitsTests.table);
		RuntimeControl control = new RuntimeControl(new InMemoryControlStore(Clock.systemUTC()), registry, rules, bans,
				Clock.systemUTC(), Duration.ofSeconds(1));
		return new RateLimitOpenApiCustomizer(classifier, control,
				RateLimitHeaders.of(Set.of(HeaderStyle.IETF, HeaderStyle.X_RATELIMIT)), body, failureMode);
	}

	private static OpenAPI document() {
		Paths paths = new Paths();
		paths.addPathItem("/v1/reports/{id}",
				new PathItem().get(new Operation().description("A report.").responses(ok())));
		paths.addPathItem("/v1/admin", new PathItem().post(new Operation().responses(ok())));
		paths.addPathItem("/actuator/health", new PathItem().get(new Operation().responses(ok())));
		return new OpenAPI().paths(paths);
	}

	private static ApiResponses ok() {
		return new ApiResponses().addApiResponse("200", new ApiResponse().description("OK"));
	}

}
