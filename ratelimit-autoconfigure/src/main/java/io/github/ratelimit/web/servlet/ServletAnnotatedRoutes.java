package io.github.ratelimit.web.servlet;

import java.util.ArrayList;
import java.util.List;

import org.springframework.context.ApplicationContext;
import org.springframework.web.servlet.mvc.method.RequestMappingInfoHandlerMapping;

import io.github.ratelimit.web.EndpointRule;
import io.github.ratelimit.web.EndpointRules;

/**
 * Finds the {@code @RateLimited} handlers of Spring MVC's request mappings once, at
 * startup, so the filter can classify by path and method without resolving the handler on
 * every request. Mapping conditions other than path and method (headers, params, media
 * types) are not considered.
 */
public final class ServletAnnotatedRoutes {

	private ServletAnnotatedRoutes() {
	}

	/**
	 * The rules of every {@code @RateLimited} handler in the context's request mappings.
	 */
	public static List<EndpointRule> find(ApplicationContext context) {
		List<EndpointRule> rules = new ArrayList<>();
		for (RequestMappingInfoHandlerMapping mapping : context.getBeansOfType(RequestMappingInfoHandlerMapping.class)
			.values()) {
			mapping.getHandlerMethods()
				.forEach((info, handler) -> rules
					.addAll(EndpointRules.annotated(handler, info.getMethodsCondition().getMethods(),
							info.getPatternValues().stream().map(EndpointRules::parse).toList())));
		}
		return rules;
	}

}
