package io.github.ratelimit.openapi;

import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.github.ratelimit.policy.Classification;
import io.github.ratelimit.policy.LimitParser;
import io.github.ratelimit.policy.PolicyOptions;
import io.github.ratelimit.policy.PolicyTable;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The service's budgets in an operation's documentation: limits of every tier, counted
 * for all callers together, never under a tier of their own.
 */
class ServiceLimitOperationLimitsTests {

	private final PolicyTable table = PolicyTable.of(
			Map.of("premium", Map.of("user", Map.of("default", LimitParser.parse("100/1m")))),
			Map.of("default", LimitParser.parse("600/1m")),
			Map.of("export", LimitParser.parse("1000/1m"), "all", LimitParser.parse("20000/1m")), Set.of("export"),
			PolicyOptions.DEFAULTS);

	@Test
	void theServicesBudgetsApplyToEveryTier() {
		OperationLimits limits = OperationLimits.of(Classification.of("export", 1), this.table);
		assertThat(limits.extension()).isEqualTo(
				Map.of("group", "export", "cost", 1L, "tiers", Map.of("premium", Map.of("user", List.of("100/1m"))),
						"every-tier", Map.of("backstop", Map.of("ip", List.of("600/1m")), "service",
								Map.of("service", List.of("1000/1m", "20000/1m")))));
		assertThat(limits.table()).contains("| every tier | all callers together (service) | 1000/1m; 20000/1m |");
		assertThat(limits.rejects()).isTrue();
	}

}
