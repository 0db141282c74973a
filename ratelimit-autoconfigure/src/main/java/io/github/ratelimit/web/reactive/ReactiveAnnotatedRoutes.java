package io.github.ratelimit.web.reactive;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import org.springframework.context.ApplicationContext;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.reactive.result.method.RequestMappingInfo;
import org.springframework.web.reactive.result.method.RequestMappingInfoHandlerMapping;
import org.springframework.web.util.pattern.PathPattern;

import io.github.ratelimit.annotation.RateLimited;
import io.github.ratelimit.web.EndpointRule;
import io.github.ratelimit.web.EndpointRules;

/**
 * Finds the {@code @RateLimited} handlers of WebFlux's request mappings once, after startup. Mapping
 * conditions other than path and method are not considered.
 */
public final class ReactiveAnnotatedRoutes {

	private ReactiveAnnotatedRoutes() {
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
		for (PathPattern pattern : info.getPatternsCondition().getPatterns()) {
			rules.add(EndpointRules.annotated(pattern, methods, annotation, handlerId(handler)));
		}
	}

	private static String handlerId(HandlerMethod handler) {
		return handler.getBeanType().getSimpleName() + "." + handler.getMethod().getName();
	}

}
