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
