package io.github.ratelimit.web.servlet;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.http.server.RequestPath;
import org.springframework.web.servlet.function.HandlerFunction;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.RouterFunctions;
import org.springframework.web.servlet.function.ServerResponse;

import io.github.ratelimit.annotation.RateLimited;
import io.github.ratelimit.policy.Classification;
import io.github.ratelimit.web.EndpointClassifier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * WebMvc.fn routes go through the same walk as WebFlux's (see
 * {@code ReactiveFunctionalRoutesTests}); this checks the servlet visitors forward to it.
 */
class ServletFunctionalRoutesTests {

	private static final HandlerFunction<ServerResponse> ok = (request) -> ServerResponse.ok().build();

	@Test
	void routeAttributesOfNestedRoutesPutThemInAGroupAtACost() {
		RouterFunction<ServerResponse> routes = RouterFunctions.route()
			.path("/fn",
					(fn) -> fn.GET("/export", ok)
						.withAttribute(RateLimited.GROUP_ATTRIBUTE, "export")
						.withAttribute(RateLimited.COST_ATTRIBUTE, 5L)
						.GET("/ping", ok)
						.withAttribute(RateLimited.EXEMPT_ATTRIBUTE, "true")
						.GET("/other", ok))
			.build();
		GenericApplicationContext context = new GenericApplicationContext();
		context.registerBean(RouterFunction.class, () -> routes);
		context.refresh();
		EndpointClassifier classifier = new EndpointClassifier(List.of(), List.of(),
				() -> ServletFunctionalRoutes.find(context));
		assertThat(classify(classifier, "GET", "/fn/export")).isEqualTo(Classification.of("export", 5));
		assertThat(classify(classifier, "GET", "/fn/ping").excluded()).isTrue();
		assertThat(classify(classifier, "GET", "/fn/other")).isEqualTo(Classification.of("default", 1));
	}

	private static Classification classify(EndpointClassifier classifier, String method, String path) {
		return classifier.classify(method, RequestPath.parse(path, null).pathWithinApplication());
	}

}
