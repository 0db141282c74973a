package io.github.ratelimit.web;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import org.jspecify.annotations.Nullable;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PatternParseException;

import io.github.ratelimit.annotation.RateLimited;
import io.github.ratelimit.policy.InlineLimit;
import io.github.ratelimit.policy.LimitParser;
import io.github.ratelimit.web.RouteConditions.Alternative;

/**
 * Collects the {@link EndpointRule}s of functional routes that carry rate-limit
 * attributes ({@link RateLimited#GROUP_ATTRIBUTE}, {@link RateLimited#COST_ATTRIBUTE},
 * {@link RateLimited#EXEMPT_ATTRIBUTE}, and a limit of the route's own:
 * {@link RateLimited#LIMIT_ATTRIBUTE}, {@link RateLimited#COUNT_ATTRIBUTE},
 * {@link RateLimited#PER_ATTRIBUTE}), from the events of a
 * {@code RouterFunctions.Visitor} walk (WebFlux and WebMvc.fn have one each, of the same
 * shape; their adapters forward here).
 * <p>
 * Attributes apply to the route or nested block visited right after them, which is what
 * the builder's {@code withAttribute} produces; the attributes of a nested block apply to
 * every route in it, and a route's own attributes win. (An attribute put on a composed
 * router function, {@code a.and(b).withAttribute(..)}, reaches only its first route: the
 * visitor does not tell where the composition ends.) Nested paths are joined as the
 * router joins them: {@code path("/api", b -> b.GET("/export", h))} is
 * {@code /api/export}.
 * <p>
 * Invalid attribute values, and attributes on a route whose predicate cannot be written
 * as path patterns (a negated path), fail with an {@link IllegalArgumentException} that
 * names the route: this runs at startup, so the application does not start with a limit
 * it cannot apply. Routes without rate-limit attributes are left alone, whatever their
 * predicate.
 * <p>
 * One instance per walk; not thread-safe.
 */
public final class FunctionalRouteRules {

	private static final String EXAMPLE = "RouterFunctions.route().GET(\"/v1/export\", handler)"
			+ ".withAttribute(RateLimited.GROUP_ATTRIBUTE, \"export\").withAttribute(RateLimited.COST_ATTRIBUTE, 10)";

	private static final Set<String> ATTRIBUTES = Set.of(RateLimited.GROUP_ATTRIBUTE, RateLimited.COST_ATTRIBUTE,
			RateLimited.EXEMPT_ATTRIBUTE, RateLimited.LIMIT_ATTRIBUTE, RateLimited.COUNT_ATTRIBUTE,
			RateLimited.PER_ATTRIBUTE);

	private final Deque<Scope> scopes = new ArrayDeque<>();

	private final Map<String, Object> pending = new LinkedHashMap<>();

	private final List<EndpointRule> rules = new ArrayList<>();

	/** Creates an empty collector. */
	public FunctionalRouteRules() {
		this.scopes.push(new Scope(List.of(new Alternative(null, null)), Map.of()));
	}

	/** Attributes of the route or nested block visited next. */
	public void attributes(Map<String, Object> attributes) {
		this.pending.putAll(attributes);
	}

	/** The start of a nested block whose requests match {@code predicate}. */
	public void startNested(RouteConditions predicate) {
		Scope outer = this.scopes.element();
		List<Alternative> nested = predicate.alternatives();
		List<Alternative> prefixes = null;
		if (outer.prefixes() != null && nested != null) {
			prefixes = new ArrayList<>();
			for (Alternative o : outer.prefixes()) {
				for (Alternative n : nested) {
					Set<String> methods = RouteConditions.intersect(o.methods(), n.methods());
					if (methods == null || !methods.isEmpty()) {
						prefixes.add(new Alternative(join(o.path(), n.path()), methods));
					}
				}
			}
		}
		this.scopes.push(new Scope(prefixes, takeAttributes(outer)));
	}

	/** The end of the innermost nested block. */
	public void endNested() {
		if (this.scopes.size() > 1) {
			this.scopes.pop();
		}
		this.pending.clear();
	}

	/**
	 * A route.
	 * @param predicate the route's request predicate, walked
	 * @param description the route, for messages (its predicate's {@code toString()})
	 * @throws IllegalArgumentException when the route's rate-limit attributes are invalid
	 * or its predicate cannot be written as path patterns
	 */
	public void route(RouteConditions predicate, String description) {
		Scope scope = this.scopes.element();
		Map<String, Object> attributes = takeAttributes(scope);
		if (attributes.keySet().stream().noneMatch(ATTRIBUTES::contains)) {
			return;
		}
		String group = group(attributes.get(RateLimited.GROUP_ATTRIBUTE), description);
		long cost = cost(attributes.get(RateLimited.COST_ATTRIBUTE), description);
		boolean exempt = exempt(attributes.get(RateLimited.EXEMPT_ATTRIBUTE), description);
		List<Alternative> alternatives = predicate.alternatives();
		if (alternatives == null || scope.prefixes() == null) {
			throw new IllegalArgumentException("Route " + description + " has rate-limit attributes, but which "
					+ "requests it matches cannot be written as path patterns (a negated path?); put the limit on "
					+ "a route with path and method conditions, or use ratelimit.groups");
		}
		// the route's own limit is one budget over all of its paths, as a handler's is
		InlineLimit inline = null;
		for (Alternative prefix : scope.prefixes()) {
			for (Alternative route : alternatives) {
				Set<String> methods = RouteConditions.intersect(prefix.methods(), route.methods());
				if (methods != null && methods.isEmpty()) {
					continue;
				}
				String pattern = routePattern(prefix.path(), route.path());
				if (inline == null) {
					inline = inline(attributes, routeId(methods, pattern), cost, description);
				}
				this.rules.add(new EndpointRule(parse(pattern, description), (methods != null) ? methods : Set.of(),
						group, cost, exempt, inline, description));
			}
		}
	}

	/**
	 * The route's own limit, or {@code null} when it declares none; checked as
	 * {@code @RateLimited}'s ({@link OwnLimits}).
	 */
	private static @Nullable InlineLimit inline(Map<String, Object> attributes, String id, long cost,
			String description) {
		Object limit = attributes.get(RateLimited.LIMIT_ATTRIBUTE);
		if (limit != null && (!(limit instanceof String spec) || spec.isBlank())) {
			throw invalid(RateLimited.LIMIT_ATTRIBUTE, limit, description,
					"a limit such as \"" + LimitParser.EXAMPLE + "\"");
		}
		Object per = attributes.get(RateLimited.PER_ATTRIBUTE);
		if (per != null && (!(per instanceof String name) || name.isBlank())) {
			throw invalid(RateLimited.PER_ATTRIBUTE, per, description,
					"a dimension (user, org, token, ip, service) or the name of a key of ratelimit.keys");
		}
		return OwnLimits.of(id, "route", (String) limit,
				countSpecs(attributes.get(RateLimited.COUNT_ATTRIBUTE), description),
				(per != null) ? ((String) per).strip() : "", cost, (part, value, reason, example) -> {
					String constant = part.name() + "_ATTRIBUTE";
					String attribute = switch (part) {
						case LIMIT -> RateLimited.LIMIT_ATTRIBUTE;
						case COUNT -> RateLimited.COUNT_ATTRIBUTE;
						case PER -> RateLimited.PER_ATTRIBUTE;
						case COST -> RateLimited.COST_ATTRIBUTE;
					};
					String quoted = (example instanceof String) ? "\"" + example + "\"" : String.valueOf(example);
					// count and per shape a limit: the example declares one
					String limitFirst = part.shapesLimit() ? ".withAttribute(RateLimited.LIMIT_ATTRIBUTE, \"10/1m\") ("
							+ RateLimited.LIMIT_ATTRIBUTE + ")" : "";
					return new IllegalArgumentException("Route attribute '" + attribute + "' of route " + description
							+ " cannot be '" + value + "': " + reason + ". For example: " + limitFirst
							+ ".withAttribute(RateLimited." + constant + ", " + quoted + ")");
				});
	}

	private static List<String> countSpecs(@Nullable Object value, String description) {
		if (value == null) {
			return List.of();
		}
		if (value instanceof String spec) {
			return List.of(spec);
		}
		if (value instanceof String[] specs) {
			return List.of(specs);
		}
		if (value instanceof Collection<?> specs && specs.stream().allMatch(String.class::isInstance)) {
			return specs.stream().map(String.class::cast).toList();
		}
		throw invalid(RateLimited.COUNT_ATTRIBUTE, value, description,
				"a string or strings such as \"failures\" or \"401\"");
	}

	/**
	 * A readable id of a route for the buckets of its own limit: its methods and path
	 * ({@code GET.v1.reports.id}).
	 */
	private static String routeId(@Nullable Set<String> methods, String pattern) {
		StringBuilder id = new StringBuilder();
		if (methods != null && !methods.isEmpty()) {
			id.append(String.join("-", new TreeSet<>(methods)));
		}
		// a variable's regular expression is no part of its name
		for (String part : pattern.replaceAll(":[^}]*}", "}").split("[/{}*]+")) {
			if (!part.isEmpty()) {
				id.append((id.length() > 0) ? "." : "").append(part);
			}
		}
		return (id.length() > 0) ? id.toString() : "route";
	}

	/**
	 * Anything else the walk visits (resources, custom router functions): its attributes
	 * are not ours.
	 */
	public void skip() {
		this.pending.clear();
	}

	/** The rules collected so far. */
	public List<EndpointRule> rules() {
		return List.copyOf(this.rules);
	}

	private Map<String, Object> takeAttributes(Scope scope) {
		if (this.pending.isEmpty()) {
			return scope.attributes();
		}
		Map<String, Object> merged = new LinkedHashMap<>(scope.attributes());
		merged.putAll(this.pending);
		this.pending.clear();
		return merged;
	}

	/**
	 * The prefix of a nested block inside {@code outer}: a nest without a path leaves the
	 * path alone.
	 */
	private static @Nullable String join(@Nullable String outer, @Nullable String nested) {
		if (outer == null || nested == null) {
			return (outer != null) ? outer : nested;
		}
		return concat(outer, nested);
	}

	/**
	 * The full pattern of a route: a nested route without a path matches whatever follows
	 * the prefix.
	 */
	private static String routePattern(@Nullable String prefix, @Nullable String route) {
		if (route != null) {
			return (prefix != null) ? concat(prefix, route) : route;
		}
		return (prefix != null) ? concat(prefix, "/**") : "/**";
	}

	private static String concat(String prefix, String path) {
		if (prefix.endsWith("/") && path.startsWith("/")) {
			return prefix + path.substring(1);
		}
		return prefix + path;
	}

	private static PathPattern parse(String pattern, String description) {
		try {
			return EndpointRules.parse(pattern);
		}
		catch (PatternParseException ex) {
			throw new IllegalArgumentException("Route " + description + " has rate-limit attributes, but its path "
					+ "pattern '" + pattern + "' cannot be matched: " + ex.getMessage(), ex);
		}
	}

	private static @Nullable String group(@Nullable Object value, String description) {
		if (value == null) {
			return null;
		}
		if (value instanceof String group && !group.isBlank()) {
			return group.strip();
		}
		throw invalid(RateLimited.GROUP_ATTRIBUTE, value, description, "a group name");
	}

	private static long cost(@Nullable Object value, String description) {
		if (value == null) {
			return 0;
		}
		long cost = -1;
		if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte) {
			cost = ((Number) value).longValue();
		}
		else if (value instanceof String string) {
			try {
				cost = Long.parseLong(string.strip());
			}
			catch (NumberFormatException ex) {
				// reported below
			}
		}
		if (cost < 1) {
			throw invalid(RateLimited.COST_ATTRIBUTE, value, description, "a whole number of at least 1");
		}
		return cost;
	}

	private static boolean exempt(@Nullable Object value, String description) {
		if (value == null) {
			return false;
		}
		if (value instanceof Boolean exempt) {
			return exempt;
		}
		if ("true".equals(value) || "false".equals(value)) {
			return Boolean.parseBoolean((String) value);
		}
		throw invalid(RateLimited.EXEMPT_ATTRIBUTE, value, description, "true or false");
	}

	private static IllegalArgumentException invalid(String attribute, Object value, String description,
			String expected) {
		return new IllegalArgumentException("Route attribute '" + attribute + "' of route " + description + " must be "
				+ expected + ", not '" + value + "'. For example: " + EXAMPLE);
	}

	/**
	 * What a nested block's routes are inside of.
	 *
	 * @param prefixes the alternatives of the enclosing nests' predicates joined, or
	 * {@code null} when one of them cannot be written as path patterns
	 * @param attributes the enclosing blocks' attributes
	 */
	private record Scope(@Nullable List<Alternative> prefixes, Map<String, Object> attributes) {
	}

}
