package io.github.ratelimit.web.reactive;

import java.util.ArrayList;
import java.util.List;

import org.springframework.context.ApplicationContext;
import org.springframework.web.reactive.result.method.RequestMappingInfoHandlerMapping;

import io.github.ratelimit.web.EndpointRule;
import io.github.ratelimit.web.EndpointRules;

/**
 * Finds the {@code @RateLimited} handlers of WebFlux's request mappings once, at startup.
 * Mapping conditions other than path and method are not considered.
 */
public final class ReactiveAnnotatedRoutes {

	private ReactiveAnnotatedRoutes() {
	}

	/**
	 * The rules of every {@code @RateLimited} handler in the context's request mappings.
	 */
	public static List<EndpointRule> find(ApplicationContext context) {
		List<EndpointRule> rules = new ArrayList<>();
		for (RequestMappingInfoHandlerMapping mapping : context.getBeansOfType(RequestMappingInfoHandlerMapping.class)
			.values()) {
			mapping.getHandlerMethods()
				.forEach((info, handler) -> rules.addAll(EndpointRules.annotated(handler,
						info.getMethodsCondition().getMethods(), info.getPatternsCondition().getPatterns())));
		}
		return rules;
	}

}
