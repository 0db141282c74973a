package io.github.ratelimit.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.yaml.snakeyaml.Yaml;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The monitoring assets shipped under {@code ops/}: the Grafana dashboard and the
 * Prometheus alert rules, as the tests that keep them true read them.
 */
public final class MonitoringAssets {

	/** The repository root: tests run in the module's directory. */
	public static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

	public static final Path DASHBOARD = ROOT.resolve("ops/grafana/ratelimit-dashboard.json");

	public static final Path ALERTS = ROOT.resolve("ops/prometheus/ratelimit-alerts.yml");

	private MonitoringAssets() {
	}

	/** The dashboard's JSON model. */
	public static JsonNode dashboard() {
		return JsonMapper.builder().build().readTree(read(DASHBOARD));
	}

	/** Every alerting rule of every group of the rules file. */
	@SuppressWarnings("unchecked")
	public static List<AlertRule> alertRules() {
		Map<String, Object> file = new Yaml().load(read(ALERTS));
		List<AlertRule> rules = new ArrayList<>();
		for (Map<String, Object> group : (List<Map<String, Object>>) file.get("groups")) {
			for (Map<String, Object> rule : (List<Map<String, Object>>) group.get("rules")) {
				rules.add(new AlertRule((String) rule.get("alert"), String.valueOf(rule.get("expr")),
						(Map<String, String>) rule.getOrDefault("labels", Map.of()),
						(Map<String, String>) rule.getOrDefault("annotations", Map.of())));
			}
		}
		return rules;
	}

	private static String read(Path file) {
		try {
			return Files.readString(file, StandardCharsets.UTF_8);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * An alerting rule.
	 *
	 * @param name the alert's name ({@code alert})
	 * @param expr its PromQL expression
	 * @param labels the labels it adds ({@code severity})
	 * @param annotations its annotations ({@code summary}, {@code description},
	 * {@code runbook})
	 */
	public record AlertRule(String name, String expr, Map<String, String> labels, Map<String, String> annotations) {
	}

}
