package io.github.ratelimit.web.servlet;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

import org.springframework.context.ApplicationContext;
import org.springframework.core.io.Resource;
import org.springframework.http.HttpMethod;
import org.springframework.web.servlet.function.HandlerFunction;
import org.springframework.web.servlet.function.RequestPredicate;
import org.springframework.web.servlet.function.RequestPredicates;
import org.springframework.web.servlet.function.RouterFunction;
import org.springframework.web.servlet.function.RouterFunctions;
import org.springframework.web.servlet.function.ServerRequest;

import io.github.ratelimit.annotation.RateLimited;
import io.github.ratelimit.web.EndpointRule;
import io.github.ratelimit.web.FunctionalRouteRules;
import io.github.ratelimit.web.RouteConditions;

/**
 * Finds the WebMvc.fn functional routes that carry rate-limit attributes
 * ({@link RateLimited#GROUP_ATTRIBUTE} and its siblings) once, at startup, by visiting
 * the application's {@link RouterFunction} beans. The walk itself is shared with WebFlux
 * ({@link FunctionalRouteRules}); this class only forwards the visitor's events.
 */
public final class ServletFunctionalRoutes {

	private ServletFunctionalRoutes() {
	}

	/**
	 * The rules of every route with rate-limit attributes in the context's router
	 * functions.
	 * @param context the application context
	 * @return the rules
	 * @throws IllegalArgumentException when a route's rate-limit attributes are invalid
	 */
	public static List<EndpointRule> find(ApplicationContext context) {
		FunctionalRouteRules rules = new FunctionalRouteRules();
		RouterVisitor visitor = new RouterVisitor(rules);
		context.getBeanProvider(RouterFunction.class).orderedStream().forEach((function) -> function.accept(visitor));
		return rules.rules();
	}

	private static RouteConditions conditions(RequestPredicate predicate) {
		RouteConditions conditions = new RouteConditions();
		predicate.accept(new PredicateVisitor(conditions));
		return conditions;
	}

	private record RouterVisitor(FunctionalRouteRules rules) implements RouterFunctions.Visitor {

		@Override
		public void startNested(RequestPredicate predicate) {
			this.rules.startNested(conditions(predicate));
		}

		@Override
		public void endNested(RequestPredicate predicate) {
			this.rules.endNested();
		}

		@Override
		public void route(RequestPredicate predicate, HandlerFunction<?> handlerFunction) {
			this.rules.route(conditions(predicate), predicate.toString());
		}

		@Override
		public void resources(Function<ServerRequest, Optional<Resource>> lookupFunction) {
			this.rules.skip();
		}

		@Override
		public void attributes(Map<String, Object> attributes) {
			this.rules.attributes(attributes);
		}

		@Override
		public void unknown(RouterFunction<?> routerFunction) {
			this.rules.skip();
		}

	}

	/**
	 * Forwards the events that shape the result; "start" and separator events carry
	 * nothing it needs.
	 */
	private record PredicateVisitor(RouteConditions conditions) implements RequestPredicates.Visitor {

		@Override
		public void method(Set<HttpMethod> methods) {
			this.conditions.method(methods.stream().map(HttpMethod::name).collect(Collectors.toSet()));
		}

		@Override
		public void path(String pattern) {
			this.conditions.path(pattern);
		}

		@Override
		public void pathExtension(String extension) {
			this.conditions.other();
		}

		@Override
		public void header(String name, String value) {
			this.conditions.other();
		}

		@Override
		public void param(String name, String value) {
			this.conditions.other();
		}

		@Override
		public void version(String version) {
			this.conditions.other();
		}

		@Override
		public void startAnd() {
		}

		@Override
		public void and() {
		}

		@Override
		public void endAnd() {
			this.conditions.endAnd();
		}

		@Override
		public void startOr() {
		}

		@Override
		public void or() {
		}

		@Override
		public void endOr() {
			this.conditions.endOr();
		}

		@Override
		public void startNegate() {
		}

		@Override
		public void endNegate() {
			this.conditions.endNegate();
		}

		@Override
		public void unknown(RequestPredicate predicate) {
			this.conditions.other();
		}

	}

}
