package io.github.ratelimit.web.reactive;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.http.HttpMethod;
import org.springframework.http.server.RequestPath;
import org.springframework.web.reactive.function.server.HandlerFunction;
import org.springframework.web.reactive.function.server.RequestPredicates;
import org.springframework.web.reactive.function.server.RouterFunction;
import org.springframework.web.reactive.function.server.RouterFunctions;
import org.springframework.web.reactive.function.server.ServerResponse;

import io.github.ratelimit.annotation.RateLimited;
import io.github.ratelimit.policy.Classification;
import io.github.ratelimit.policy.CountedResponses;
import io.github.ratelimit.policy.InlineLimit;
import io.github.ratelimit.web.EndpointClassifier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class ReactiveFunctionalRoutesTests {

	private static final HandlerFunction<ServerResponse> ok = (request) -> ServerResponse.ok().build();

	@Test
	void routeAttributesPutTheRouteInAGroupAtACost() {
		EndpointClassifier classifier = classifier(RouterFunctions.route()
			.GET("/fn/export", ok)
			.withAttribute(RateLimited.GROUP_ATTRIBUTE, "export")
			.withAttribute(RateLimited.COST_ATTRIBUTE, 5)
			.GET("/fn/other", ok)
			.build());
		assertThat(classify(classifier, "GET", "/fn/export")).isEqualTo(Classification.of("export", 5));
		assertThat(classify(classifier, "POST", "/fn/export")).isEqualTo(Classification.of("default", 1));
		assertThat(classify(classifier, "GET", "/fn/other")).isEqualTo(Classification.of("default", 1));
	}

	@Test
	void exemptAttributeExcludesTheRoute() {
		EndpointClassifier classifier = classifier(
				RouterFunctions.route().GET("/fn/ping", ok).withAttribute(RateLimited.EXEMPT_ATTRIBUTE, true).build());
		assertThat(classify(classifier, "GET", "/fn/ping").excluded()).isTrue();
	}

	@Test
	void nestedPathsAreJoinedAndBlockAttributesApplyToEveryRouteInside() {
		EndpointClassifier classifier = classifier(RouterFunctions.route()
			.path("/fn/reports",
					(reports) -> reports.GET("/{id}", ok)
						.POST("/heavy", ok)
						.withAttribute(RateLimited.COST_ATTRIBUTE, "7")
						.nest(RequestPredicates.method(HttpMethod.DELETE),
								(delete) -> delete.route(RequestPredicates.all(), ok)))
			.withAttribute(RateLimited.GROUP_ATTRIBUTE, "reports")
			.build());
		assertThat(classify(classifier, "GET", "/fn/reports/1")).isEqualTo(Classification.of("reports", 1));
		assertThat(classify(classifier, "POST", "/fn/reports/heavy")).isEqualTo(Classification.of("reports", 7));
		assertThat(classify(classifier, "DELETE", "/fn/reports/any/thing")).isEqualTo(Classification.of("reports", 1));
		assertThat(classify(classifier, "GET", "/fn/elsewhere")).isEqualTo(Classification.of("default", 1));
	}

	@Test
	void eitherPathOfAnOrMatches() {
		EndpointClassifier classifier = classifier(RouterFunctions.route()
			.route(RequestPredicates.path("/fn/a").or(RequestPredicates.path("/fn/b")), ok)
			.withAttribute(RateLimited.GROUP_ATTRIBUTE, "ab")
			.build());
		assertThat(classify(classifier, "GET", "/fn/a").group()).isEqualTo("ab");
		assertThat(classify(classifier, "PUT", "/fn/b").group()).isEqualTo("ab");
	}

	@Test
	void headerAndQueryConditionsAreNotConsidered() {
		EndpointClassifier classifier = classifier(RouterFunctions.route()
			.GET("/fn/search",
					RequestPredicates.queryParam("q", (q) -> true).and(RequestPredicates.headers((h) -> true)), ok)
			.withAttribute(RateLimited.GROUP_ATTRIBUTE, "search")
			.build());
		assertThat(classify(classifier, "GET", "/fn/search").group()).isEqualTo("search");
	}

	@Test
	void negatedMethodsMatchEveryOtherMethod() {
		EndpointClassifier classifier = classifier(RouterFunctions.route()
			.route(RequestPredicates.path("/fn/w").and(RequestPredicates.method(HttpMethod.GET).negate()), ok)
			.withAttribute(RateLimited.GROUP_ATTRIBUTE, "write")
			.build());
		assertThat(classify(classifier, "GET", "/fn/w").group()).isEqualTo("default");
		assertThat(classify(classifier, "POST", "/fn/w").group()).isEqualTo("write");
		assertThat(classify(classifier, "DELETE", "/fn/w").group()).isEqualTo("write");
	}

	@Test
	void routesWithoutRateLimitAttributesAreLeftAloneWhateverTheirPredicate() {
		EndpointClassifier classifier = classifier(RouterFunctions.route()
			.route(RequestPredicates.path("/fn/x").negate(), ok)
			.withAttribute("other", "value")
			.build());
		assertThat(classify(classifier, "GET", "/fn/y").group()).isEqualTo("default");
	}

	@Test
	void attributesOnANegatedPathStopTheStart() {
		RouterFunction<ServerResponse> routes = RouterFunctions.route()
			.route(RequestPredicates.path("/fn/x").negate(), ok)
			.withAttribute(RateLimited.GROUP_ATTRIBUTE, "export")
			.build();
		assertThatIllegalArgumentException().isThrownBy(() -> classifier(routes).prepare())
			.withMessageContaining("cannot be written as path patterns");
	}

	@Test
	void invalidAttributeValuesStopTheStartNamingTheRoute() {
		RouterFunction<ServerResponse> cost = RouterFunctions.route()
			.GET("/fn/export", ok)
			.withAttribute(RateLimited.COST_ATTRIBUTE, "ten")
			.build();
		assertThatIllegalArgumentException().isThrownBy(() -> classifier(cost).prepare())
			.withMessageContaining(RateLimited.COST_ATTRIBUTE)
			.withMessageContaining("/fn/export")
			.withMessageContaining("'ten'");
		RouterFunction<ServerResponse> group = RouterFunctions.route()
			.GET("/fn/export", ok)
			.withAttribute(RateLimited.GROUP_ATTRIBUTE, 42)
			.build();
		assertThatIllegalArgumentException().isThrownBy(() -> classifier(group).prepare())
			.withMessageContaining(RateLimited.GROUP_ATTRIBUTE);
	}

	@Test
	void aLimitOfTheRouteOwnIsOneBudgetOverItsPathsCountedAsDeclared() {
		EndpointClassifier classifier = classifier(RouterFunctions.route()
			.GET("/fn/repos/{repo:[a-z]+}/stars", ok)
			.withAttribute(RateLimited.LIMIT_ATTRIBUTE, "10/1m")
			.withAttribute(RateLimited.COUNT_ATTRIBUTE, List.of("401", "403"))
			.withAttribute(RateLimited.PER_ATTRIBUTE, " repo ")
			.route(RequestPredicates.POST("/fn/a").or(RequestPredicates.POST("/fn/b")), ok)
			.withAttribute(RateLimited.LIMIT_ATTRIBUTE, "5/1h")
			.build());
		InlineLimit stars = classify(classifier, "GET", "/fn/repos/alpha/stars").inline();
		assertThat(stars).isNotNull();
		assertThat(stars.handler()).isEqualTo("GET.fn.repos.repo.stars");
		assertThat(stars.limit().spec()).isEqualTo("10/1m");
		assertThat(stars.counts()).isEqualTo(CountedResponses.parse(List.of("401", "403")));
		assertThat(stars.per()).isEqualTo("repo");
		InlineLimit a = classify(classifier, "POST", "/fn/a").inline();
		assertThat(a).isNotNull();
		assertThat(a.per()).as("the verified user, else the client address").isEmpty();
		assertThat(classify(classifier, "POST", "/fn/b").inline()).as("one budget for both paths").isEqualTo(a);
		assertThat(classify(classifier, "GET", "/fn/a").inline()).isNull();
	}

	@Test
	void aMalformedOwnLimitOrItsShapeWithoutOneStopsTheStartNamingTheRoute() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> classifier(RouterFunctions.route()
				.GET("/fn/x", ok)
				.withAttribute(RateLimited.LIMIT_ATTRIBUTE, "ten a minute")
				.build()).prepare())
			.withMessageContaining(RateLimited.LIMIT_ATTRIBUTE)
			.withMessageContaining("/fn/x")
			.withMessageContaining("'ten a minute'")
			.withMessageContaining("50/1m");
		// a blank limit is a mistake, not "no limit"
		assertThatIllegalArgumentException()
			.isThrownBy(() -> classifier(
					RouterFunctions.route().GET("/fn/x", ok).withAttribute(RateLimited.LIMIT_ATTRIBUTE, " ").build())
				.prepare())
			.withMessageContaining(RateLimited.LIMIT_ATTRIBUTE)
			.withMessageContaining("/fn/x")
			.withMessageContaining("50/1m");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> classifier(
					RouterFunctions.route().GET("/fn/x", ok).withAttribute(RateLimited.PER_ATTRIBUTE, "repo").build())
				.prepare())
			.withMessageContaining(RateLimited.PER_ATTRIBUTE)
			.withMessageContaining(RateLimited.LIMIT_ATTRIBUTE);
		assertThatIllegalArgumentException()
			.isThrownBy(() -> classifier(RouterFunctions.route()
				.GET("/fn/x", ok)
				.withAttribute(RateLimited.LIMIT_ATTRIBUTE, "10/1m")
				.withAttribute(RateLimited.COUNT_ATTRIBUTE, "sometimes")
				.build()).prepare())
			.withMessageContaining(RateLimited.COUNT_ATTRIBUTE)
			.withMessageContaining("'sometimes'");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> classifier(RouterFunctions.route()
				.GET("/fn/x", ok)
				.withAttribute(RateLimited.LIMIT_ATTRIBUTE, "3/1m")
				.withAttribute(RateLimited.COST_ATTRIBUTE, 5)
				.build()).prepare())
			.withMessageContaining(RateLimited.COST_ATTRIBUTE)
			.withMessageContaining("more than the 3 tokens")
			.withMessageContaining("COST_ATTRIBUTE, 3)");
	}

	private static EndpointClassifier classifier(RouterFunction<?> routes) {
		GenericApplicationContext context = new GenericApplicationContext();
		context.registerBean(RouterFunction.class, () -> routes);
		context.refresh();
		return new EndpointClassifier(List.of(), List.of(), () -> ReactiveFunctionalRoutes.find(context));
	}

	private static Classification classify(EndpointClassifier classifier, String method, String path) {
		return classifier.classify(method, RequestPath.parse(path, null).pathWithinApplication());
	}

}
