package io.github.ratelimit.web;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.springframework.http.server.RequestPath;

import io.github.ratelimit.annotation.RateLimited;
import io.github.ratelimit.policy.Classification;
import io.github.ratelimit.policy.InvalidRateLimitConfigurationException;
import io.github.ratelimit.policy.PathVariables;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class EndpointClassifierTests {

	private final List<EndpointRule> annotated = new ArrayList<>();

	private final EndpointClassifier classifier = new EndpointClassifier(
			EndpointRules.exclusions(List.of("/actuator/**")),
			concat(EndpointRules.group("ratelimit.groups.auth", "auth", List.of("/v1/auth/**"), List.of(), 1),
					EndpointRules.group("ratelimit.groups.export", "export", List.of("/v1/export/**"), List.of("post"),
							10),
					EndpointRules.group("ratelimit.groups.listing", "listing", List.of("/v1/list/**"), List.of("GET"),
							3)),
			() -> this.annotated);

	private Classification classify(String method, String uri) {
		return this.classifier.classify(method, RequestPath.parse(uri, null).pathWithinApplication());
	}

	@Test
	void matchesGroupsByPathAndMethod() {
		assertThat(classify("POST", "/v1/auth/login")).isEqualTo(Classification.of("auth", 1));
		assertThat(classify("POST", "/v1/export/all")).isEqualTo(Classification.of("export", 10));
		assertThat(classify("GET", "/v1/export/all")).isEqualTo(Classification.of("default", 1));
		assertThat(classify("GET", "/elsewhere")).isEqualTo(Classification.of("default", 1));
	}

	@Test
	void headIsClassifiedAsTheGetItIsServedAs() {
		assertThat(classify("HEAD", "/v1/list/all")).isEqualTo(Classification.of("listing", 3));
		this.annotated.add(EndpointRules.annotated(EndpointRules.parse("/v1/auth/cheap/{id}"), Set.of("GET"),
				annotation("cheap"), "Handlers.cheap"));
		assertThat(classify("HEAD", "/v1/auth/cheap/1")).isEqualTo(classify("GET", "/v1/auth/cheap/1"));
		assertThat(classify("HEAD", "/v1/export/all")).as("POST-only stays POST-only")
			.isEqualTo(Classification.of("default", 1));
	}

	@Test
	void classifiesADocumentedOperationByItsPathTemplate() {
		this.annotated.add(EndpointRules.annotated(EndpointRules.parse("/v1/items/{id:\\d{1,9}}"), Set.of("GET"),
				annotation("cheap"), "Handlers.cheap"));
		this.annotated.add(EndpointRules.annotated(EndpointRules.parse("/v1/auth/cheap/{id}"), Set.of("GET"),
				annotation("cheap"), "Handlers.cheap"));
		assertThat(this.classifier.classifyTemplate("post", "/v1/export/{id}"))
			.isEqualTo(Classification.of("export", 10));
		assertThat(this.classifier.classifyTemplate("GET", "/v1/auth/cheap/{key}"))
			.isEqualTo(classify("GET", "/v1/auth/cheap/1"));
		assertThat(this.classifier.classifyTemplate("GET", "/actuator/{name}").excluded()).isTrue();
		assertThat(this.classifier.classifyTemplate("GET", "/v1/items/{id}")).as("the template drops the expression")
			.isEqualTo(Classification.of("default", 3));
		assertThat(this.classifier.classifyTemplate("POST", "/v1/items/{id}"))
			.isEqualTo(Classification.of("default", 1));
		assertThat(this.classifier.classifyTemplate("GET", "/v1/{collection}/all"))
			.as("a variable is no literal of a configured pattern")
			.isEqualTo(Classification.of("default", 1));
	}

	@Test
	void encodedPathsCannotEscapeTheirGroup() {
		assertThat(classify("POST", "/v1/%61uth/login").group()).isEqualTo("auth");
		assertThat(classify("POST", "/v1/auth;jsessionid=x/login").group()).isEqualTo("auth");
	}

	@Test
	void excludedPathsAreNeverLimited() {
		assertThat(classify("GET", "/actuator/health").excluded()).isTrue();
	}

	@Test
	void annotationOverridesGroupAndCost() {
		this.annotated.add(EndpointRules.annotated(EndpointRules.parse("/v1/auth/heavy"), Set.of(), annotation("heavy"),
				"Handlers.heavy"));
		this.annotated.add(EndpointRules.annotated(EndpointRules.parse("/v1/auth/cheap/{id}"), Set.of("GET"),
				annotation("cheap"), "Handlers.cheap"));
		this.annotated.add(EndpointRules.annotated(EndpointRules.parse("/v1/auth/ping"), Set.of(), annotation("ping"),
				"Handlers.ping"));
		assertThat(classify("GET", "/v1/auth/heavy")).isEqualTo(Classification.of("export", 10));
		assertThat(classify("GET", "/v1/auth/cheap/7")).isEqualTo(Classification.of("auth", 3));
		assertThat(classify("POST", "/v1/auth/cheap/7")).isEqualTo(Classification.of("auth", 1));
		assertThat(classify("GET", "/v1/auth/ping").excluded()).isTrue();
	}

	@Test
	void annotationMayDeclareALimitOfTheHandlersOwn() {
		this.annotated.add(EndpointRules.annotated(EndpointRules.parse("/v1/auth/own"), Set.of(), annotation("own"),
				"AuthController.own"));
		Classification classification = classify("GET", "/v1/auth/own");
		assertThat(classification.group()).isEqualTo("auth");
		assertThat(classification.inline().handler()).isEqualTo("AuthController.own");
		assertThat(classification.inline().limit().spec()).isEqualTo("2/1m");
		assertThat(classify("GET", "/v1/auth/other").inline()).isNull();
	}

	@Test
	void malformedAnnotationLimitNamesTheHandler() {
		assertThatExceptionOfType(InvalidRateLimitConfigurationException.class)
			.isThrownBy(() -> EndpointRules.annotated(EndpointRules.parse("/x"), Set.of(), annotation("malformed"),
					"AuthController.malformed"))
			.satisfies((ex) -> assertThat(ex.getProperty()).contains("AuthController.malformed"));
	}

	@Test
	void costLargerThanTheHandlersOwnLimitNamesTheHandler() {
		assertThatExceptionOfType(InvalidRateLimitConfigurationException.class)
			.isThrownBy(() -> EndpointRules.annotated(EndpointRules.parse("/x"), Set.of(), annotation("overpriced"),
					"ReportController.report"))
			.satisfies((ex) -> {
				assertThat(ex.getProperty()).isEqualTo("@RateLimited(cost) of ReportController.report");
				assertThat(ex.getMessage()).contains("5/1m");
			});
	}

	@Test
	void invalidPatternOrMethodNamesTheProperty() {
		assertThatExceptionOfType(InvalidRateLimitConfigurationException.class)
			.isThrownBy(() -> EndpointRules.group("ratelimit.groups.auth", "auth", List.of("/v1/{oops"), List.of(), 1))
			.satisfies((ex) -> assertThat(ex.getProperty()).isEqualTo("ratelimit.groups.auth.paths[0]"));
		assertThatExceptionOfType(InvalidRateLimitConfigurationException.class)
			.isThrownBy(() -> EndpointRules.group("ratelimit.groups.auth", "auth", List.of("/a"), List.of("FETCH"), 1))
			.satisfies((ex) -> assertThat(ex.getProperty()).isEqualTo("ratelimit.groups.auth.methods"));
		assertThatExceptionOfType(InvalidRateLimitConfigurationException.class)
			.isThrownBy(() -> EndpointRules.group("ratelimit.groups.auth", "auth", List.of("/a"), List.of(), 0))
			.satisfies((ex) -> assertThat(ex.getProperty()).isEqualTo("ratelimit.groups.auth.cost"));
	}

	@SafeVarargs
	private static List<EndpointRule> concat(List<EndpointRule>... lists) {
		List<EndpointRule> all = new ArrayList<>();
		for (List<EndpointRule> list : lists) {
			all.addAll(list);
		}
		return all;
	}

	@Test
	void pathVariablesComeFromTheHandlersMappingThenTheGroupsPattern() {
		EndpointClassifier classifier = new EndpointClassifier(List.of(),
				EndpointRules.group("ratelimit.groups.repos", "repos", List.of("/v1/repos/{owner}/{repo}/**"),
						List.of(), 1),
				() -> List.of(EndpointRules.annotated(EndpointRules.parse("/v1/repos/{owner}/{name}/issues/{id}"),
						Set.of("GET"), annotation("perRepo"), "Handlers.perRepo")));
		Classification issue = classifier.classify("GET",
				RequestPath.parse("/v1/repos/acme/my%20app/issues/7", null).pathWithinApplication());
		assertThat(issue.group()).isEqualTo("repos");
		assertThat(issue.inline().per()).isEqualTo("repo");
		assertThat(issue.pathVariables().get("name")).isEqualTo("my app");
		assertThat(issue.pathVariables().get("id")).isEqualTo("7");
		// the group's pattern names the same segment otherwise
		assertThat(issue.pathVariables().get("repo")).isEqualTo("my app");
		assertThat(issue.pathVariables().get("missing")).isNull();
		Classification other = classifier.classify("GET",
				RequestPath.parse("/v1/repos/acme/lib/pulls", null).pathWithinApplication());
		assertThat(other.pathVariables().get("repo")).isEqualTo("lib");
		assertThat(other.pathVariables().get("id")).isNull();
		// no pattern with variables classified it: nothing to read
		assertThat(classifier.classify("GET", RequestPath.parse("/v2/x", null).pathWithinApplication()).pathVariables())
			.isSameAs(PathVariables.NONE);
	}

	@Test
	void perWithoutALimitOfTheHandlersOwnStopsTheStart() {
		assertThatExceptionOfType(InvalidRateLimitConfigurationException.class)
			.isThrownBy(() -> EndpointRules.annotated(EndpointRules.parse("/x"), Set.of(),
					annotation("perWithoutLimit"), "Handlers.perWithoutLimit"))
			.satisfies((ex) -> {
				assertThat(ex.getProperty()).isEqualTo("@RateLimited(per) of Handlers.perWithoutLimit");
				assertThat(ex.getExample()).isEqualTo("@RateLimited(limit = \"10/1m\", per = \"repo\")");
			});
	}

	private static RateLimited annotation(String method) {
		try {
			return Handlers.class.getDeclaredMethod(method).getAnnotation(RateLimited.class);
		}
		catch (NoSuchMethodException ex) {
			throw new IllegalStateException(ex);
		}
	}

	static class Handlers {

		@RateLimited(group = "export")
		void heavy() {
		}

		@RateLimited(cost = 3)
		void cheap() {
		}

		@RateLimited(exempt = true)
		void ping() {
		}

		@RateLimited(limit = "2/1m")
		void own() {
		}

		@RateLimited(limit = "2/1m", per = "repo")
		void perRepo() {
		}

		@RateLimited(per = "repo")
		void perWithoutLimit() {
		}

		@RateLimited(limit = "two a minute")
		void malformed() {
		}

		@RateLimited(cost = 10, limit = "5/1m")
		void overpriced() {
		}

	}

}
