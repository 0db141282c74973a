package io.github.ratelimit.metrics;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a PromQL expression names, read well enough to check it against exported series:
 * each selector (metric name and label matchers) and the labels it groups by. Function
 * and aggregation names (followed by {@code (}), keywords, numbers, ranges ({@code [5m]},
 * {@code [$__rate_interval]}) and Grafana variables are not metric names; any other bare
 * word is, so a misspelled metric is reported, never skipped.
 */
final class PromQl {

	private static final Pattern MATCHERS = Pattern.compile("\\{((?:[^}\"]|\"(?:[^\"\\\\]|\\\\.)*\")*)\\}");

	private static final Pattern GROUPING = Pattern
		.compile("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\(([^)]*)\\)");

	private static final Pattern RANGE = Pattern.compile("\\[[^\\]]*\\]");

	private static final Pattern WORD = Pattern
		.compile("(?<![\\w.$:])([a-zA-Z_:][a-zA-Z0-9_:]*)(\\s*\\()?(?:\\s*\u00a7(\\d+)\u00a7)?");

	private static final Pattern MATCHER = Pattern
		.compile("([a-zA-Z_][a-zA-Z0-9_]*)\\s*(=~|!~|!=|=)\\s*\"((?:[^\"\\\\]|\\\\.)*)\"");

	private static final Set<String> KEYWORDS = Set.of("and", "or", "unless", "bool", "offset", "inf", "nan");

	private PromQl() {
	}

	/** The selectors and grouping labels of an expression. */
	static Expression parse(String expr) {
		List<String> matcherBlocks = new ArrayList<>();
		Matcher blocks = MATCHERS.matcher(expr);
		StringBuilder text = new StringBuilder();
		while (blocks.find()) {
			matcherBlocks.add(blocks.group(1));
			blocks.appendReplacement(text, " \u00a7" + (matcherBlocks.size() - 1) + "\u00a7");
		}
		blocks.appendTail(text);
		Set<String> grouping = new LinkedHashSet<>();
		Matcher clauses = GROUPING.matcher(text);
		while (clauses.find()) {
			for (String label : clauses.group(2).split(",")) {
				if (!label.isBlank()) {
					grouping.add(label.strip());
				}
			}
		}
		String rest = RANGE.matcher(GROUPING.matcher(text).replaceAll(" ")).replaceAll(" ");
		List<Selector> selectors = new ArrayList<>();
		Matcher words = WORD.matcher(rest);
		int named = 0;
		while (words.find()) {
			String word = words.group(1);
			if (words.group(2) != null || KEYWORDS.contains(word)) {
				continue;
			}
			String block = "";
			if (words.group(3) != null) {
				block = matcherBlocks.get(Integer.parseInt(words.group(3)));
				named++;
			}
			selectors.add(new Selector(word, matchers(block)));
		}
		if (named < matcherBlocks.size()) {
			throw new IllegalArgumentException("A selector without a metric name in: " + expr);
		}
		return new Expression(selectors, grouping);
	}

	private static List<LabelMatcher> matchers(String block) {
		List<LabelMatcher> matchers = new ArrayList<>();
		Matcher matcher = MATCHER.matcher(block);
		while (matcher.find()) {
			matchers.add(new LabelMatcher(matcher.group(1), matcher.group(2), matcher.group(3)));
		}
		return matchers;
	}

	/**
	 * What an expression names.
	 *
	 * @param selectors its series selectors, in order
	 * @param grouping the labels of its {@code by}, {@code without}, {@code on},
	 * {@code ignoring} and {@code group_*} clauses
	 */
	record Expression(List<Selector> selectors, Set<String> grouping) {

		Set<String> metrics() {
			Set<String> metrics = new LinkedHashSet<>();
			this.selectors.forEach((selector) -> metrics.add(selector.metric()));
			return metrics;
		}

	}

	/**
	 * A series selector: {@code metric{label="value", ...}}.
	 *
	 * @param metric the metric name
	 * @param matchers its label matchers
	 */
	record Selector(String metric, List<LabelMatcher> matchers) {

	}

	/**
	 * A label matcher: {@code label op "value"}.
	 *
	 * @param label the label name
	 * @param op {@code =}, {@code !=}, {@code =~} or {@code !~}
	 * @param value the value or regular expression, unescaped only as far as PromQL
	 * strings need for the names in them
	 */
	record LabelMatcher(String label, String op, String value) {

		/**
		 * The literal values the matcher names: the value itself, or each alternative of
		 * a regular expression made only of alternatives of plain words; none when the
		 * value holds a Grafana variable or other regular-expression syntax.
		 */
		List<String> literals() {
			if (this.value.contains("$") || !this.value.matches("[a-zA-Z0-9_.-]+(\\|[a-zA-Z0-9_.-]+)*")) {
				return List.of();
			}
			return List.of(this.value.split("\\|"));
		}

	}

}
