package io.github.ratelimit.web;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;
import org.springframework.http.server.PathContainer;
import org.springframework.util.function.SingletonSupplier;
import org.springframework.web.util.pattern.PathPattern;

import io.github.ratelimit.policy.Classification;
import io.github.ratelimit.policy.PathVariables;

/**
 * Step two of the pipeline: which endpoint group a request is in and what it costs.
 * Exclusions come first, then {@code @RateLimited} handlers (most specific pattern
 * first), then the configured groups in order; anything else is in the {@code default}
 * group at cost 1. Patterns are compiled once; matching uses the same decoded
 * {@link PathContainer} the web framework routes with, so an encoded path cannot slip
 * into another group.
 */
public final class EndpointClassifier {

	private final List<EndpointRule> exclusions;

	private final List<EndpointRule> groups;

	private final SingletonSupplier<List<EndpointRule>> annotated;

	// asked by the gate on every request; the handlers' rules never change once found.
	// Worked out by prepare(), before traffic, with the rules themselves (whose first
	// lookup takes a lock an event loop must not wait on); read without a lock after
	// that, and two threads working it out at once find the same answer
	private volatile @Nullable Boolean countsByOutcome;

	/** The cost of every configured group, those without paths included. */
	private final Map<String, Long> groupCosts;

	// the rules never change once built: a path is classified the same way every time
	private final RecentPaths<Classification> recent = new RecentPaths<>();

	/**
	 * Creates a classifier.
	 * @param exclusions rules of paths that are never limited
	 * @param groups the configured groups' rules, in configuration order
	 * @param annotated the rules of {@code @RateLimited} handlers, asked for once on
	 * first use (handler mappings are ready only after startup)
	 */
	public EndpointClassifier(List<EndpointRule> exclusions, List<EndpointRule> groups,
			Supplier<List<EndpointRule>> annotated) {
		this(exclusions, groups, Map.of(), annotated);
	}

	/**
	 * Creates a classifier.
	 * @param exclusions rules of paths that are never limited
	 * @param groups the configured groups' rules, in configuration order
	 * @param groupCosts the cost of every configured group, those without paths (only
	 * named by handlers and routes) included
	 * @param annotated the rules of {@code @RateLimited} handlers, asked for once on
	 * first use
	 */
	public EndpointClassifier(List<EndpointRule> exclusions, List<EndpointRule> groups, Map<String, Long> groupCosts,
			Supplier<List<EndpointRule>> annotated) {
		this.exclusions = List.copyOf(exclusions);
		this.groups = List.copyOf(groups);
		Map<String, Long> costs = new LinkedHashMap<>(groupCosts);
		for (EndpointRule rule : this.groups) {
			costs.putIfAbsent(rule.group(), rule.cost());
		}
		this.groupCosts = Map.copyOf(costs);
		this.annotated = SingletonSupplier.of(() -> sortBySpecificity(annotated.get()));
	}

	/**
	 * Whether a handler's own limit counts only some responses
	 * ({@code @RateLimited(count = ...)}): the gate before authentication decides such
	 * limits.
	 */
	public boolean countsByOutcome() {
		Boolean counts = this.countsByOutcome;
		if (counts == null) {
			counts = countsByOutcome(this.annotated.obtain());
			this.countsByOutcome = counts;
		}
		return counts;
	}

	private static boolean countsByOutcome(List<EndpointRule> annotated) {
		for (EndpointRule rule : annotated) {
			if (rule.inline() != null && !rule.inline().counts().all()) {
				return true;
			}
		}
		return false;
	}

	/**
	 * What the {@code @RateLimited} handlers and route attributes set, one line each, for
	 * the startup log ({@code GET /api/reports/{id}: group reports, cost 5, own limit
	 * 60/1h}).
	 */
	public List<String> describeAnnotated() {
		List<String> lines = new ArrayList<>();
		for (EndpointRule rule : this.annotated.get()) {
			StringBuilder line = new StringBuilder();
			line.append(rule.methods().isEmpty() ? "*" : String.join("|", new TreeSet<>(rule.methods())))
				.append(' ')
				.append(rule.pattern().getPatternString())
				.append(':');
			if (rule.exempt()) {
				line.append(" exempt");
			}
			if (rule.group() != null) {
				line.append(" group ").append(rule.group());
			}
			if (rule.cost() > 0) {
				line.append(" cost ").append(rule.cost());
			}
			if (rule.inline() != null) {
				line.append(" own limit ").append(rule.inline().limit().spec());
			}
			lines.add(line.toString());
		}
		return lines;
	}

	/**
	 * The groups that {@code @RateLimited} handlers and route attributes name, each with
	 * a pattern that names it (for error messages). Asks for the rules as
	 * {@link #prepare()} does.
	 */
	public Map<String, String> annotatedGroups() {
		Map<String, String> named = new LinkedHashMap<>();
		for (EndpointRule rule : this.annotated.get()) {
			if (rule.group() != null) {
				named.putIfAbsent(rule.group(), rule.pattern().getPatternString());
			}
		}
		return named;
	}

	/**
	 * The rules of {@code @RateLimited} handlers and route attributes (asks for them as
	 * {@link #prepare()} does).
	 */
	public List<EndpointRule> annotatedRules() {
		return this.annotated.get();
	}

	/** The cost of a configured group, or 1 for one that is not configured. */
	public long groupCost(String group) {
		return this.groupCosts.getOrDefault(group, 1L);
	}

	/**
	 * Asks for the rules of annotated handlers and routes now rather than on the first
	 * request. Call it once the handler mappings and router functions are ready (after
	 * every singleton exists): the first requests then neither pay for the search nor
	 * wait on each other for it (a wait that would block an event loop), and an invalid
	 * route attribute stops the start.
	 */
	public void prepare() {
		countsByOutcome();
	}

	/** Classifies a request by method and path within the application. */
	public Classification classify(String method, PathContainer path) {
		String value = path.value();
		Classification known = this.recent.find(method, value);
		if (known != null) {
			return known;
		}
		Classification classification = classify(method, path, null);
		if (classification.pathVariables() == PathVariables.NONE) {
			// one with path variables reads them lazily from its own path: not shared
			this.recent.remember(method, value, classification);
		}
		return classification;
	}

	private Classification classify(String method, PathContainer path, @Nullable String template) {
		if (firstMatch(this.exclusions, method, path, template) != null) {
			return Classification.EXCLUDED;
		}
		EndpointRule configured = firstMatch(this.groups, method, path, template);
		EndpointRule annotation = firstMatch(this.annotated.get(), method, path, template);
		if (annotation != null && annotation.exempt()) {
			return Classification.EXCLUDED;
		}
		String group = Classification.DEFAULT_GROUP;
		long cost = 1;
		if (configured != null) {
			group = configured.group();
			cost = configured.cost();
		}
		if (annotation != null) {
			if (annotation.group() != null) {
				group = annotation.group();
				// a group named by annotation keeps its configured cost when the
				// annotation sets none
				cost = this.groupCosts.getOrDefault(annotation.group(), 1L);
			}
			if (annotation.cost() > 0) {
				cost = annotation.cost();
			}
			return withVariables(Classification.of(group, cost).withInline(annotation.inline()), path, template,
					annotation, configured);
		}
		return withVariables(Classification.of(group, cost), path, template, null, configured);
	}

	// a template stands for no request: it has no values to read
	private static Classification withVariables(Classification classification, PathContainer path,
			@Nullable String template, @Nullable EndpointRule annotation, @Nullable EndpointRule configured) {
		if (template != null) {
			return classification;
		}
		PathVariables variables = MatchedPathVariables.of(path, annotation, configured);
		return (variables != PathVariables.NONE) ? classification.withPathVariables(variables) : classification;
	}

	/**
	 * Classifies the requests of a documented operation by method and path template
	 * ({@code /v1/items/{id}}, as an OpenAPI document lists it), without a request: each
	 * variable of the template stands for a segment that no literal of a configured
	 * pattern matches ({@code /v1/items/**}, {@code /v1/items/{id}} and
	 * {@code /v1/items/{id:\d+}} match it, {@code /v1/items/export} does not).
	 */
	public Classification classifyTemplate(String method, String pathTemplate) {
		return classify(method.toUpperCase(Locale.ROOT), PathContainer.parsePath(pathTemplate), pathTemplate);
	}

	/**
	 * The first rule that matches the path, or whose pattern is the template (a template
	 * lists {@code {id:\d+}} as {@code {id}}, a segment that the regular expression would
	 * not match).
	 */
	private static @Nullable EndpointRule firstMatch(List<EndpointRule> rules, String method, PathContainer path,
			@Nullable String template) {
		for (EndpointRule rule : rules) {
			if (rule.matches(method, path) || (template != null && rule.matchesTemplate(method, template))) {
				return rule;
			}
		}
		return null;
	}

	private static List<EndpointRule> sortBySpecificity(List<EndpointRule> rules) {
		List<EndpointRule> sorted = new ArrayList<>(rules);
		sorted.sort(Comparator.comparing(EndpointRule::pattern, PathPattern.SPECIFICITY_COMPARATOR));
		return List.copyOf(sorted);
	}

}
