package io.github.ratelimit.web;

import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.springframework.http.server.PathContainer;
import org.springframework.web.util.pattern.PathPattern;

import io.github.ratelimit.policy.InlineLimit;

/**
 * One classification rule: requests whose path and method match go to a group at a cost,
 * or are exempt.
 *
 * @param pattern the compiled path pattern
 * @param methods upper-case HTTP methods; empty for any
 * @param group the group, or {@code null} to keep the group matched by the configured
 * groups
 * @param cost the cost, or 0 to keep the group's cost
 * @param exempt whether matching requests are never limited
 * @param inline the handler's own limit, or {@code null}
 * @param route the functional route that declared the rule, as messages name it, or
 * {@code null} for configuration and annotations
 */
public record EndpointRule(PathPattern pattern, Set<String> methods, @Nullable String group, long cost, boolean exempt,
		@Nullable InlineLimit inline, @Nullable String route) {

	public EndpointRule(PathPattern pattern, Set<String> methods, @Nullable String group, long cost, boolean exempt) {
		this(pattern, methods, group, cost, exempt, null, null);
	}

	public EndpointRule(PathPattern pattern, Set<String> methods, @Nullable String group, long cost, boolean exempt,
			@Nullable InlineLimit inline) {
		this(pattern, methods, group, cost, exempt, inline, null);
	}

	boolean matches(String method, PathContainer path) {
		return matchesMethod(method) && this.pattern.matches(path);
	}

	/**
	 * Whether this rule's pattern, variables without their regular expressions, is an
	 * operation's path template ({@code /v1/items/{id:\d+}} is {@code /v1/items/{id}}).
	 */
	boolean matchesTemplate(String method, String template) {
		return matchesMethod(method) && template.equals(withoutConstraints(this.pattern.getPatternString()));
	}

	private static String withoutConstraints(String pattern) {
		StringBuilder template = new StringBuilder(pattern.length());
		int depth = 0;
		boolean constraint = false;
		for (int i = 0; i < pattern.length(); i++) {
			char c = pattern.charAt(i);
			if (c == '{') {
				depth++;
			}
			else if (c == '}') {
				depth--;
				constraint = constraint && depth > 0;
			}
			else if (c == ':' && depth == 1) {
				constraint = true;
			}
			if (!constraint || (c == '}' && depth == 0)) {
				template.append(c);
			}
		}
		return template.toString();
	}

	// Spring MVC and WebFlux serve HEAD with the GET handler: a HEAD is limited as the
	// GET it runs as
	private boolean matchesMethod(String method) {
		return this.methods.isEmpty() || this.methods.contains(method)
				|| ("HEAD".equals(method) && this.methods.contains("GET"));
	}

}
