package io.github.ratelimit.openapi;

import java.time.Duration;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.github.ratelimit.policy.Classification;
import io.github.ratelimit.policy.InlineLimit;
import io.github.ratelimit.policy.LimitParser;
import io.github.ratelimit.policy.Mode;
import io.github.ratelimit.policy.PolicyOptions;
import io.github.ratelimit.policy.PolicyOptions.GroupOptions;
import io.github.ratelimit.policy.PolicyOptions.Tuning;
import io.github.ratelimit.policy.PolicyTable;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What an operation's documentation says of its limits, read from the policy table.
 */
class OperationLimitsTests {

	static final PolicyTable table = table();

	/** Tiers in configuration order, as the binder keeps them. */
	private static PolicyTable table() {
		Map<String, Map<String, Map<String, String>>> tiers = new LinkedHashMap<>();
		tiers.put("anonymous", Map.of("ip", Map.of("default", "60/1m", "reports", "10/1m", "admin", "0")));
		tiers.put("premium", Map.of("user", Map.of("default", "1000/1m", "reports", "100/1h"), "org",
				Map.of("all", "100000/month")));
		return PolicyTable.build(tiers, Map.of("default", "600/1m"), Set.of("reports", "admin", "export", "search"),
				new PolicyOptions(ZoneOffset.UTC, Mode.ENFORCE, 0, Map.of(),
						Map.of("export", new GroupOptions(new Tuning(null, null), 2, Duration.ZERO), "search",
								new GroupOptions(new Tuning(Mode.OBSERVE, null), 0, Duration.ZERO))));
	}

	@Test
	void listsEachTiersLimitsAndTheBackstopOnce() {
		OperationLimits limits = OperationLimits.of(Classification.of("reports", 5), table);
		assertThat(limits.extension()).isEqualTo(Map.of("group", "reports", "cost", 5L, "tiers",
				Map.of("anonymous", Map.of("ip", List.of("10/1m")), "premium",
						Map.of("user", List.of("100/1h"), "org", List.of("100000/month"))),
				"every-tier", Map.of("backstop", Map.of("ip", List.of("600/1m")))));
		assertThat(limits.rejects()).isTrue();
		assertThat(limits.forbids()).isFalse();
		assertThat(limits.reports()).isTrue();
	}

	@Test
	void describesTheLimitsInATable() {
		OperationLimits limits = OperationLimits.of(Classification.of("reports", 5), table);
		assertThat(limits.table()).isEqualTo("""
				**Rate limits** (group `reports`, 5 tokens a request)

				| tier | counted per | limits |
				|---|---|---|
				| anonymous | ip | 10/1m |
				| premium | org | 100000/month |
				| premium | user | 100/1h |
				| every tier | ip (backstop) | 600/1m |
				""");
	}

	@Test
	void blockedTierCanBeForbidden() {
		OperationLimits limits = OperationLimits.of(Classification.of("admin", 1), table);
		assertThat(limits.tiers()).containsEntry("anonymous", Map.of("ip", List.of("0")));
		assertThat(limits.forbids()).isTrue();
		assertThat(limits.rejects()).as("premium falls back to its default limit").isTrue();
	}

	@Test
	void costThatALimitCanNeverHoldIsForbidden() {
		OperationLimits limits = OperationLimits.of(Classification.of("reports", 20), table);
		assertThat(limits.forbids()).as("anonymous callers hold 10 tokens at most").isTrue();
		assertThat(limits.rejects()).isTrue();
	}

	@Test
	void handlersOwnLimitAndGroupConcurrencyApplyToEveryTier() {
		InlineLimit own = new InlineLimit("ApiController.report", LimitParser.parse("60/1h"));
		OperationLimits limits = OperationLimits.of(Classification.of("export", 1).withInline(own), table);
		assertThat(limits.everyTier()).containsEntry("inline", Map.of("user-or-ip", List.of("60/1h")))
			.containsEntry("group", Map.of("user-or-ip", List.of("2 concurrent")));
		assertThat(limits.table()).contains("| every tier | user, else ip (this operation's own) | 60/1h |")
			.contains("| every tier | user, else ip (group concurrency) | 2 concurrent |");
	}

	@Test
	void windowsAndLeakyBucketsAreDescribedByTheirKindAndACostAboveTheRateIsForbidden() {
		PolicyTable kinds = PolicyTable.build(
				Map.of("partner",
						Map.of("org", Map.of("default", "1000/1m fixed"), "user",
								Map.of("default", "100/1m sliding, 5/1s leaky"))),
				Map.of(), Set.of(), new PolicyOptions(ZoneOffset.UTC, Mode.ENFORCE, 0, Map.of(), Map.of()));
		OperationLimits limits = OperationLimits.of(Classification.of("default", 1), kinds);
		assertThat(limits.tiers()).containsEntry("partner",
				Map.of("org", List.of("1000/1m fixed"), "user", List.of("100/1m sliding, 5/1s leaky")));
		assertThat(limits.rejects()).isTrue();
		assertThat(limits.forbids()).isFalse();
		// a request takes one slot per token: more than a period's slots never pass
		assertThat(OperationLimits.of(Classification.of("default", 6), kinds).forbids()).isTrue();
	}

	@Test
	void groupInObserveModeNeverRefusesNorShowsHeaders() {
		PolicyTable observed = PolicyTable.build(Map.of("anonymous", Map.of("ip", Map.of("default", "60/1m"))),
				Map.of("default", "600/1m"), Set.of("search"),
				new PolicyOptions(ZoneOffset.UTC, Mode.ENFORCE, 0, Map.of(),
						Map.of("search", new GroupOptions(new Tuning(Mode.OBSERVE, null), 0, Duration.ZERO))));
		OperationLimits limits = OperationLimits.of(Classification.of("search", 1), observed);
		assertThat(limits.any()).isTrue();
		assertThat(limits.tiers()).containsEntry("anonymous", Map.of("ip", List.of("60/1m (observe)")));
		assertThat(limits.everyTier()).containsEntry("backstop", Map.of("ip", List.of("600/1m (observe)")));
		assertThat(limits.rejects()).isFalse();
		assertThat(limits.forbids()).isFalse();
		assertThat(limits.reports()).isFalse();
	}

	@Test
	void tierWideQuotaStillEnforcesInAGroupInObserveMode() {
		OperationLimits limits = OperationLimits.of(Classification.of("search", 1), table);
		assertThat(limits.tiers()).containsEntry("premium",
				Map.of("user", List.of("1000/1m (observe)"), "org", List.of("100000/month")));
		assertThat(limits.rejects()).isTrue();
	}

	@Test
	void tableWithoutTiersHasTheBackstopOnly() {
		PolicyTable backstopOnly = PolicyTable.build(Map.of(), Map.of("default", "600/1m"), Set.of());
		OperationLimits limits = OperationLimits.of(Classification.of("default", 1), backstopOnly);
		assertThat(limits.tiers()).isEmpty();
		assertThat(limits.everyTier()).isEqualTo(Map.of("backstop", Map.of("ip", List.of("600/1m"))));
		assertThat(limits.table()).contains("1 token a request");
	}

	@Test
	void noLimitNoDocumentation() {
		OperationLimits limits = OperationLimits.of(Classification.of("default", 1),
				PolicyTable.build(Map.of(), Map.of(), Set.of()));
		assertThat(limits.any()).isFalse();
		assertThat(limits.rejects()).isFalse();
	}

}
