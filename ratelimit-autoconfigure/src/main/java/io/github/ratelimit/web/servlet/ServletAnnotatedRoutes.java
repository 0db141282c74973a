package io.github.ratelimit.web.servlet;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.springframework.context.ApplicationContext;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.mvc.method.RequestMappingInfo;
import org.springframework.web.servlet.mvc.method.RequestMappingInfoHandlerMapping;
import org.springframework.web.util.pattern.PathPattern;

import io.github.ratelimit.annotation.RateLimited;
import io.github.ratelimit.web.EndpointRule;
import io.github.ratelimit.web.EndpointRules;

/**
 * Finds the {@code @RateLimited} handlers of Spring MVC's request mappings once, after startup, so the
 * filter can classify by path and method without resolving the handler on every request. Mapping
 * conditions other than path and method (headers, params, media types) are not considered.
 */
public final class ServletAnnotatedRoutes {

	private ServletAnnotatedRoutes() {
	}

	/** The rules of every {@code @RateLimited} handler in the context's request mappings. */
	public static List<EndpointRule> find(ApplicationContext context) {
		List<EndpointRule> rules = new ArrayList<>();
		for (RequestMappingInfoHandlerMapping mapping : context.getBeansOfType(RequestMappingInfoHandlerMapping.class)
			.values()) {
			mapping.getHandlerMethods().forEach((info, handler) -> add(rules, info, handler));
		}
		return rules;
	}

	private static void add(List<EndpointRule> rules, RequestMappingInfo info, HandlerMethod handler) {
		RateLimited annotation = AnnotatedElementUtils.findMergedAnnotation(handler.getMethod(), RateLimited.class);
		if (annotation == null) {
			annotation = AnnotatedElementUtils.findMergedAnnotation(handler.getBeanType(), RateLimited.class);
		}
		if (annotation == null) {
			return;
		}
		Set<String> methods = info.getMethodsCondition()
			.getMethods()
			.stream()
			.map(Enum::name)
			.collect(Collectors.toUnmodifiableSet());
		for (String pattern : info.getPatternValues()) {
			PathPattern parsed = EndpointRules.parse(pattern);
			rules.add(EndpointRules.annotated(parsed, methods, annotation, handlerId(handler)));
		}
	}

	private static String handlerId(HandlerMethod handler) {
		return handler.getBeanType().getSimpleName() + "." + handler.getMethod().getName();
	}

}
