package io.github.ratelimit.metrics;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

import io.github.ratelimit.control.AccessRule;
import io.github.ratelimit.control.BanRules;
import io.github.ratelimit.control.RuntimeControl;
import io.github.ratelimit.core.Decision;
import io.github.ratelimit.core.DenialReason;
import io.github.ratelimit.core.FailureMode;
import io.github.ratelimit.core.LoginProtection;
import io.github.ratelimit.core.RateLimiter;
import io.github.ratelimit.core.RateLimiterBuilder;
import io.github.ratelimit.identity.ClientIpResolver;
import io.github.ratelimit.identity.Identifier;
import io.github.ratelimit.load.InFlightRequests;
import io.github.ratelimit.load.LoadShedder;
import io.github.ratelimit.load.Priority;
import io.github.ratelimit.load.Threshold;
import io.github.ratelimit.policy.Classification;
import io.github.ratelimit.policy.CountedResponses;
import io.github.ratelimit.policy.LimitParser;
import io.github.ratelimit.policy.Mode;
import io.github.ratelimit.policy.PolicyOptions;
import io.github.ratelimit.policy.PolicyOptions.GroupOptions;
import io.github.ratelimit.policy.PolicyOptions.Tuning;
import io.github.ratelimit.policy.PolicyRegistry;
import io.github.ratelimit.policy.PolicyTable;
import io.github.ratelimit.storage.memory.InMemoryControlStore;
import io.github.ratelimit.storage.memory.InMemoryRateLimitStore;
import io.github.ratelimit.test.ManualTimeMeter;
import io.github.ratelimit.test.TestRequest;

/**
 * What the application exports to Prometheus: the real {@link RateLimitMetrics}, bound to
 * a {@link PrometheusMeterRegistry} with every optional meter (a remote store, runtime
 * control, login protection), told of one decision of each outcome and of a warning, then
 * scraped. The series are what a dashboard or an alert rule can name.
 */
final class ExportedMeters {

	private static final Pattern SAMPLE = Pattern.compile("([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{([^}]*)\\})? .*");

	private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

	private final ManualTimeMeter time = new ManualTimeMeter(Instant.parse("2026-03-01T10:00:00Z"));

	private final FailingRemoteStore store = new FailingRemoteStore(
			new InMemoryRateLimitStore(10_000, this.time, this.time));

	private final PolicyTable table = PolicyTable.build(
			Map.of("anonymous", Map.of("ip",
					Map.of("default", "2/1h", "observed", "1/1h", "warned", "1/1h", "soft", "10/1h", "blocked", "0"))),
			Map.of(), Set.of("observed", "warned", "soft", "blocked"),
			new PolicyOptions(ZoneOffset.UTC, Mode.ENFORCE, 0, Map.of(),
					Map.of("observed", new GroupOptions(new Tuning(Mode.OBSERVE, null), 0, Duration.ZERO), "warned",
							new GroupOptions(new Tuning(Mode.WARN, null), 0, Duration.ZERO), "soft",
							new GroupOptions(new Tuning(null, 50), 0, Duration.ZERO))));

	private final RuntimeControl control = new RuntimeControl(new InMemoryControlStore(this.time),
			new PolicyRegistry(this.table), List.of(AccessRule.parse(AccessRule.Access.DENY, "192.0.2.0/24")),
			new BanRules(new BanRules.Settings(2, null, null, null, null), Map.of(), Map.of()), this.time,
			Duration.ofSeconds(1));

	private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

	private final RateLimiter limiter = limiter(FailureMode.OPEN).control(this.control)
		.loginProtection(new LoginProtection(LimitParser.parse("3/1m"), LimitParser.parse("5/1m"),
				CountedResponses.parse(List.of("401")), null))
		.build();

	/** The same store and policies, but {@code closed} when the store fails: 503. */
	private final RateLimiter closedLimiter = limiter(FailureMode.CLOSED).policies(this.table).build();

	/**
	 * The same store and policies while the service sheds every priority but critical.
	 */
	private final RateLimiter sheddingLimiter = limiter(FailureMode.OPEN).policies(this.table)
		.load(new InFlightRequests(),
				new LoadShedder(() -> 1, Map.of(), Map.of(),
						List.of(new LoadShedder.Step(Priority.HIGH, new Threshold(0.9, 0.8))), Duration.ofSeconds(5)),
				null)
		.build();

	private final RateLimitMetrics metrics = new RateLimitMetrics(this.limiter, this.store, this.control);

	private final Map<String, Map<String, Set<String>>> series;

	ExportedMeters() {
		this.metrics.bindTo(this.registry);
		decide(this.limiter, "203.0.113.1", "default", 3); // allowed, rejected
		decide(this.limiter, "203.0.113.2", "observed", 2); // allowed, observed
		decide(this.limiter, "203.0.113.3", "warned", 2); // allowed, warned
		decide(this.limiter, "203.0.113.4", "soft", 6); // near-limit warnings
		decide(this.limiter, "203.0.113.5", "blocked", 1); // blocked
		decide(this.limiter, "192.0.2.9", "default", 1); // denied
		decide(this.limiter, "203.0.113.6", "default", 5); // rejected until banned
		// refused at the gate by the country rules and a reputation list
		Decision.Denied denied = (Decision.Denied) this.limiter.decide(TestRequest.from("192.0.2.9"),
				Classification.of("default", 1));
		this.metrics.onDecision(
				new Decision.Denied(denied.identity(), denied.classification(), denied.decidedAt(), DenialReason.GEO),
				1_000_000);
		this.metrics.onDecision(new Decision.Denied(denied.identity(), denied.classification(), denied.decidedAt(),
				DenialReason.REPUTATION), 1_000_000);
		decide(this.sheddingLimiter, "203.0.113.8", "default", 1); // shed
		this.store.fail();
		decide(this.limiter, "203.0.113.7", "default", 1); // error (failure mode open)
		decide(this.closedLimiter, "203.0.113.7", "default", 1); // unavailable
		this.series = parse(this.registry.scrape());
	}

	private RateLimiterBuilder limiter(FailureMode failureMode) {
		return RateLimiter
			.builder(new Identifier(List.of(), new ClientIpResolver(List.of(), 32, 64), this.table.tiers(), "anonymous",
					"authenticated"), this.store)
			.failureMode(failureMode, null)
			.clock(this.time);
	}

	private void decide(RateLimiter limiter, String address, String group, int times) {
		for (int i = 0; i < times; i++) {
			Decision decision = limiter.decide(TestRequest.from(address), Classification.of(group, 1));
			// the metrics' public listener API: how the filters tell them of a decision
			this.metrics.onDecision(decision, 1_000_000);
		}
	}

	/** The scraped series: metric name, then label name, then the values seen. */
	Map<String, Map<String, Set<String>>> series() {
		return this.series;
	}

	private static Map<String, Map<String, Set<String>>> parse(String exposition) {
		Map<String, Map<String, Set<String>>> series = new TreeMap<>();
		for (String line : exposition.split("\n")) {
			Matcher sample = SAMPLE.matcher(line);
			if (line.startsWith("#") || !sample.matches()) {
				continue;
			}
			Map<String, Set<String>> labels = series.computeIfAbsent(sample.group(1), (name) -> new TreeMap<>());
			if (sample.group(2) != null) {
				Matcher label = LABEL.matcher(sample.group(2));
				while (label.find()) {
					labels.computeIfAbsent(label.group(1), (name) -> new TreeSet<>()).add(label.group(2));
				}
			}
		}
		return series;
	}

}
