package io.github.ratelimit.web;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.http.HttpMethod;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;
import org.springframework.web.util.pattern.PatternParseException;

import io.github.ratelimit.annotation.RateLimited;
import io.github.ratelimit.policy.InlineLimit;
import io.github.ratelimit.policy.InvalidRateLimitConfigurationException;

/**
 * Builds {@link EndpointRule}s from configuration and from {@code @RateLimited},
 * validating as it goes.
 */
public final class EndpointRules {

	private static final PathPatternParser parser = PathPatternParser.defaultInstance;

	private EndpointRules() {
	}

	/**
	 * Rules of one configured group.
	 * @param property the group's property ({@code ratelimit.groups.auth})
	 * @param group the group name
	 * @param paths its path patterns
	 * @param methods its methods (empty for any)
	 * @param cost its cost
	 * @return one rule per pattern; none for a group that only {@code @RateLimited}
	 * handlers and routes name
	 * @throws InvalidRateLimitConfigurationException naming the invalid property
	 */
	public static List<EndpointRule> group(String property, String group, List<String> paths, List<String> methods,
			long cost) {
		if (cost < 1) {
			throw new InvalidRateLimitConfigurationException(property + ".cost", cost, "a cost must be at least 1",
					"10");
		}
		// a group without paths takes only the handlers and routes that name it (checked
		// at startup)
		Set<String> methodSet = methods(property + ".methods", methods);
		List<EndpointRule> rules = new ArrayList<>();
		for (int i = 0; i < paths.size(); i++) {
			rules.add(new EndpointRule(pattern(property + ".paths[" + i + "]", paths.get(i)), methodSet, group, cost,
					false));
		}
		return rules;
	}

	/** Rules that exclude paths from every limit. */
	public static List<EndpointRule> exclusions(List<String> paths) {
		List<EndpointRule> rules = new ArrayList<>();
		for (int i = 0; i < paths.size(); i++) {
			rules.add(new EndpointRule(pattern("ratelimit.exclude-paths[" + i + "]", paths.get(i)), Set.of(), null, 0,
					true));
		}
		return rules;
	}

	/**
	 * The rules of a handler method of a request mapping, from its {@code @RateLimited}
	 * (the method's wins over its class's); used by both web stacks.
	 * @param handler the handler method
	 * @param methods the methods it is mapped to (empty for any)
	 * @param patterns the path patterns it is mapped to
	 * @return one rule per pattern, or none when neither the method nor its class is
	 * annotated
	 */
	public static List<EndpointRule> annotated(HandlerMethod handler, Set<RequestMethod> methods,
			Collection<PathPattern> patterns) {
		RateLimited annotation = AnnotatedElementUtils.findMergedAnnotation(handler.getMethod(), RateLimited.class);
		if (annotation == null) {
			annotation = AnnotatedElementUtils.findMergedAnnotation(handler.getBeanType(), RateLimited.class);
		}
		if (annotation == null) {
			return List.of();
		}
		Set<String> names = methods.stream().map(Enum::name).collect(Collectors.toUnmodifiableSet());
		List<EndpointRule> rules = new ArrayList<>(patterns.size());
		String handlerId = handler.getBeanType().getSimpleName() + "." + handler.getMethod().getName();
		for (PathPattern pattern : patterns) {
			rules.add(annotated(pattern, names, annotation, handlerId));
		}
		return rules;
	}

	/**
	 * The rule of a {@code @RateLimited} handler mapped to {@code pattern} and
	 * {@code methods}.
	 * @param handler a readable id of the handler ({@code ExportController.export}),
	 * naming its own limit
	 * @throws InvalidRateLimitConfigurationException when the annotation's limit is
	 * malformed
	 */
	public static EndpointRule annotated(PathPattern pattern, Set<String> methods, RateLimited annotation,
			String handler) {
		String group = annotation.group().isBlank() ? null : annotation.group();
		long cost = Math.max(0, annotation.cost());
		String limit = annotation.limit();
		InlineLimit inline = OwnLimits.of(handler, "handler", limit, List.of(annotation.count()),
				annotation.per().strip(), cost,
				(part, value, reason, example) -> new InvalidRateLimitConfigurationException(
						"@RateLimited(" + part.word() + ") of " + handler, value, reason, switch (part) {
							case LIMIT -> "@RateLimited(limit = \"" + example + "\")";
							case COST -> "@RateLimited(cost = " + example + ", limit = \"" + limit + "\")";
							case COUNT, PER ->
								"@RateLimited(limit = \"10/1m\", " + part.word() + " = \"" + example + "\")";
						}));
		return new EndpointRule(pattern, methods, group, cost, annotation.exempt(), inline);
	}

	/**
	 * Parses a pattern of a handler mapping (never fails: those patterns were accepted by
	 * the framework).
	 */
	public static PathPattern parse(String pattern) {
		return parser.parse(parser.initFullPathPattern(pattern));
	}

	private static PathPattern pattern(String property, String pattern) {
		try {
			return parser.parse(parser.initFullPathPattern(pattern));
		}
		catch (PatternParseException ex) {
			throw new InvalidRateLimitConfigurationException(property, pattern, ex.getMessage(), "/v1/auth/**");
		}
	}

	private static Set<String> methods(String property, List<String> methods) {
		Set<String> set = new LinkedHashSet<>();
		for (String method : methods) {
			String upper = method.trim().toUpperCase(Locale.ROOT);
			if (upper.isEmpty() || !List.of(HttpMethod.values()).contains(HttpMethod.valueOf(upper))) {
				throw new InvalidRateLimitConfigurationException(property, method, "unknown HTTP method",
						"[GET, POST]");
			}
			set.add(upper);
		}
		return Set.copyOf(set);
	}

}
