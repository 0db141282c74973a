package io.github.ratelimit.metrics;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import io.github.ratelimit.test.MonitoringAssets;
import io.github.ratelimit.test.MonitoringAssets.AlertRule;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.InstanceOfAssertFactories.STRING;

/**
 * The Grafana dashboard and the Prometheus alert rules under {@code ops/} name only what
 * the application exports: every metric, label and literal label value of every query is
 * one the real {@link RateLimitMetrics} writes to a Prometheus registry
 * ({@link ExportedMeters}), and every meter of the documentation's table is on the
 * dashboard.
 */
class MonitoringAssetsTests {

	/**
	 * Labels Prometheus adds to every scraped series, and the common tag the docs
	 * suggest.
	 */
	private static final Set<String> TARGET_LABELS = Set.of("job", "instance", "application");

	private static final Pattern LEGEND_LABEL = Pattern.compile("\\{\\{\\s*([a-zA-Z_][a-zA-Z0-9_]*)\\s*\\}\\}");

	private static final Pattern LABEL_VALUES = Pattern
		.compile("label_values\\((.*),\\s*([a-zA-Z_][a-zA-Z0-9_]*)\\s*\\)");

	private static final Pattern DOCUMENTED_METER = Pattern
		.compile("^\\| `(ratelimit\\.[a-z.-]+)` \\| (counter|timer|gauge) \\|", Pattern.MULTILINE);

	private final Map<String, Map<String, Set<String>>> exported = new ExportedMeters().series();

	@Test
	void everyDashboardQueryNamesExportedSeries() {
		List<String> problems = new ArrayList<>();
		dashboardQueries(MonitoringAssets.dashboard())
			.forEach((where, query) -> problems.addAll(problems(where, query.expr(), query.legend())));
		dashboardVariables(MonitoringAssets.dashboard()).forEach((name, query) -> {
			Matcher labelValues = LABEL_VALUES.matcher(query);
			if (!labelValues.matches()) {
				problems.add("variable " + name + ": not label_values(selector, label): " + query);
				return;
			}
			problems.addAll(problems("variable " + name, labelValues.group(1), ""));
			for (String metric : PromQl.parse(labelValues.group(1)).metrics()) {
				if (!TARGET_LABELS.contains(labelValues.group(2))
						&& !this.exported.getOrDefault(metric, Map.of()).containsKey(labelValues.group(2))) {
					problems.add("variable " + name + ": " + metric + " has no label " + labelValues.group(2));
				}
			}
		});
		assertThat(dashboardQueries(MonitoringAssets.dashboard())).hasSizeGreaterThanOrEqualTo(15);
		assertThat(dashboardVariables(MonitoringAssets.dashboard())).containsOnlyKeys("application", "instance", "tier",
				"group");
		assertThat(problems).isEmpty();
	}

	@Test
	void everyAlertRuleNamesExportedSeries() {
		List<AlertRule> rules = MonitoringAssets.alertRules();
		assertThat(rules).extracting(AlertRule::name)
			.containsExactlyInAnyOrder("RateLimitRefusalSpike", "RateLimitStoreErrors", "RateLimitCircuitOpen",
					"RateLimitFailureModeDecisions", "RateLimitLoginRefusalSpike", "RateLimitBansNotStarted",
					"RateLimitLatencyHigh");
		List<String> problems = new ArrayList<>();
		for (AlertRule rule : rules) {
			problems.addAll(problems("alert " + rule.name(), rule.expr(), ""));
			Set<String> grouping = PromQl.parse(rule.expr()).grouping();
			for (String text : rule.annotations().values()) {
				Matcher label = Pattern.compile("\\$labels\\.([a-zA-Z_][a-zA-Z0-9_]*)").matcher(text);
				while (label.find()) {
					if (!grouping.contains(label.group(1))) {
						problems.add("alert " + rule.name() + ": its result has no label " + label.group(1));
					}
				}
			}
		}
		assertThat(problems).isEmpty();
	}

	@Test
	void everyAlertSaysWhatItMeansAndHowSevereItIs() {
		assertThat(MonitoringAssets.alertRules()).allSatisfy((rule) -> {
			assertThat(rule.annotations()).containsOnlyKeys("summary", "description", "runbook");
			assertThat(rule.annotations().values()).allSatisfy((text) -> assertThat(text).isNotBlank());
			assertThat(rule.labels()).containsKey("severity");
			assertThat(rule.labels().get("severity")).isIn("warning", "critical");
		});
	}

	@Test
	void everyDocumentedMeterIsExportedAndOnTheDashboard() throws IOException {
		// the queries' label values are checked against these: every outcome and kind is
		// written
		assertThat(this.exported.get("ratelimit_decisions_total").get("outcome")).containsExactlyInAnyOrder("allowed",
				"rejected", "observed", "warned", "blocked", "denied", "banned", "error", "unavailable", "shed");
		assertThat(this.exported.get("ratelimit_store_errors_total").get("kind")).containsExactlyInAnyOrder("timeout",
				"not-connected", "circuit-open", "overloaded", "refused", "inconsistent", "error");
		Map<String, List<String>> documented = documentedMeters();
		assertThat(documented).hasSizeGreaterThanOrEqualTo(10);
		Set<String> onDashboard = new LinkedHashSet<>();
		dashboardQueries(MonitoringAssets.dashboard())
			.forEach((where, query) -> onDashboard.addAll(PromQl.parse(query.expr()).metrics()));
		documented.forEach((meter, series) -> {
			assertThat(this.exported).as("exported series of " + meter).containsKeys(series.toArray(String[]::new));
			assertThat(onDashboard).as("dashboard series of " + meter).containsAnyElementsOf(series);
		});
		Set<String> documentedSeries = new LinkedHashSet<>();
		documented.values().forEach(documentedSeries::addAll);
		assertThat(documentedSeries).as("every exported series is a documented meter's")
			.containsAll(this.exported.keySet());
	}

	@Test
	void aMisspelledMetricLabelOrValueIsReported() {
		String expr = dashboardQueries(MonitoringAssets.dashboard()).values().iterator().next().expr();
		assertThat(expr).contains("ratelimit_decisions_total", "outcome");
		assertThat(problems("panel", expr, "")).isEmpty();
		assertThat(problems("panel", expr.replace("ratelimit_decisions_total", "ratelimit_decision_total"), ""))
			.singleElement(STRING)
			.contains("unknown metric ratelimit_decision_total");
		assertThat(problems("panel", "sum(rate(ratelimit_decisions_total{outcom=\"rejected\"}[5m]))", ""))
			.singleElement(STRING)
			.contains("no label outcom");
		assertThat(problems("panel", "sum(rate(ratelimit_decisions_total{outcome=~\"rejected|refused\"}[5m]))", ""))
			.singleElement(STRING)
			.contains("outcome=\"refused\"");
		assertThat(problems("panel", "sum by (tier) (rate(ratelimit_decision_latency_seconds_count[5m]))", ""))
			.singleElement(STRING)
			.contains("groups by tier");
		assertThat(problems("panel", "sum by (kind) (rate(ratelimit_store_errors_total[5m]))", "{{store}}"))
			.singleElement(STRING)
			.contains("legend");
	}

	/** What is wrong with a query: names the exporter does not write. */
	private List<String> problems(String where, String expr, String legend) {
		List<String> problems = new ArrayList<>();
		PromQl.Expression parsed = PromQl.parse(expr);
		if (parsed.selectors().isEmpty()) {
			problems.add(where + ": names no metric: " + expr);
		}
		for (PromQl.Selector selector : parsed.selectors()) {
			Map<String, Set<String>> labels = this.exported.get(selector.metric());
			if (labels == null) {
				problems.add(where + ": unknown metric " + selector.metric() + " in " + expr);
				continue;
			}
			for (PromQl.LabelMatcher matcher : selector.matchers()) {
				if (TARGET_LABELS.contains(matcher.label())) {
					continue;
				}
				Set<String> values = labels.get(matcher.label());
				if (values == null) {
					problems.add(where + ": " + selector.metric() + " has no label " + matcher.label());
					continue;
				}
				for (String literal : matcher.literals()) {
					if (!values.contains(literal)) {
						problems.add(where + ": " + selector.metric() + " never has " + matcher.label() + "=\""
								+ literal + "\" (only " + values + ")");
					}
				}
			}
			for (String label : parsed.grouping()) {
				if (!TARGET_LABELS.contains(label) && !labels.containsKey(label)) {
					problems.add(where + ": groups by " + label + ", which " + selector.metric() + " has not");
				}
			}
		}
		Matcher legendLabel = LEGEND_LABEL.matcher(legend);
		while (legendLabel.find()) {
			if (!parsed.grouping().contains(legendLabel.group(1))) {
				problems.add(where + ": the legend names " + legendLabel.group(1) + ", which the result has not");
			}
		}
		return problems;
	}

	/**
	 * Each panel query of the dashboard (rows' panels included), by panel and reference.
	 */
	private static Map<String, Query> dashboardQueries(JsonNode dashboard) {
		Map<String, Query> queries = new LinkedHashMap<>();
		List<JsonNode> panels = new ArrayList<>();
		dashboard.get("panels").forEach(panels::add);
		for (int i = 0; i < panels.size(); i++) {
			JsonNode panel = panels.get(i);
			if (panel.has("panels")) {
				panel.get("panels").forEach(panels::add);
			}
			if (panel.has("targets")) {
				for (JsonNode target : panel.get("targets")) {
					queries.put("panel '" + panel.get("title").asString() + "' " + target.get("refId").asString(),
							new Query(target.get("expr").asString(), target.path("legendFormat").asString("")));
				}
			}
		}
		return queries;
	}

	/** The query of each query variable of the dashboard, by name. */
	private static Map<String, String> dashboardVariables(JsonNode dashboard) {
		Map<String, String> variables = new LinkedHashMap<>();
		for (JsonNode variable : dashboard.get("templating").get("list")) {
			if ("query".equals(variable.get("type").asString())) {
				JsonNode query = variable.get("query");
				variables.put(variable.get("name").asString(),
						query.isObject() ? query.get("query").asString() : query.asString());
			}
		}
		return variables;
	}

	/**
	 * The meters of the table in docs/observability.md, each with the series Micrometer's
	 * Prometheus registry writes for it: dots and dashes become underscores, a counter
	 * gets {@code _total}, a timer {@code _seconds_count}, {@code _seconds_sum} and
	 * {@code _seconds_max}.
	 */
	private static Map<String, List<String>> documentedMeters() throws IOException {
		String page = Files.readString(MonitoringAssets.ROOT.resolve("docs/observability.md"), StandardCharsets.UTF_8);
		Map<String, List<String>> meters = new LinkedHashMap<>();
		Matcher row = DOCUMENTED_METER.matcher(page);
		while (row.find()) {
			String name = row.group(1).replaceAll("[.-]", "_");
			meters.put(row.group(1), switch (row.group(2)) {
				case "counter" -> List.of(name + "_total");
				case "timer" -> List.of(name + "_seconds_count", name + "_seconds_sum", name + "_seconds_max");
				default -> List.of(name);
			});
		}
		return meters;
	}

	/**
	 * A panel's query.
	 *
	 * @param expr its PromQL
	 * @param legend its legend format ({@code {{label}}} placeholders)
	 */
	private record Query(String expr, String legend) {
	}

}
