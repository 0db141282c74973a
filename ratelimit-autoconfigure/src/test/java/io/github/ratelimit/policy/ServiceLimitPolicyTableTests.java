package io.github.ratelimit.policy;

import java.time.Duration;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.github.ratelimit.identity.Identity;
import io.github.ratelimit.storage.StoreKeys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The service's budgets in the policy table: a budget every caller of a group (or of the
 * whole API) shares, met by every tier after its own limits and the backstop.
 */
class ServiceLimitPolicyTableTests {

	private static final Map<String, Map<String, Map<String, Limit>>> TIERS = Map.of("premium",
			Map.of("user", Map.of("default", LimitParser.parse("100/1m"))));

	@Test
	void everyTierMeetsTheGroupsBudgetThenTheWholeApisAfterItsOwnLimits() {
		PolicyTable table = PolicyTable.of(TIERS, Map.of("default", LimitParser.parse("2000/1m")),
				Map.of("export", LimitParser.parse("1000/1m"), "all", LimitParser.parse("50000/1h")), Set.of("export"),
				PolicyOptions.DEFAULTS);
		assertThat(table.policies("premium", "export")).extracting(Policy::name)
			.containsExactly("premium-user-default", "backstop-ip-default", "service-export", "service-all");
		// a caller of no configured tier, and a group without a budget of its own
		assertThat(table.policies("anonymous", "export")).extracting(Policy::name)
			.containsExactly("backstop-ip-default", "service-export", "service-all");
		assertThat(table.policies("premium", "default")).extracting(Policy::name)
			.containsExactly("premium-user-default", "backstop-ip-default", "service-all");
		Policy export = table.policies("premium", "export").get(2);
		assertThat(export.scope()).isEqualTo(PolicyScope.SERVICE);
		assertThat(export.dimension()).isEqualTo(Dimension.SERVICE);
		assertThat(export.tier()).isEqualTo("service");
		// one budget: the same policy, so the same bucket, whoever calls
		assertThat(table.policies("anonymous", "export").get(1)).isSameAs(export);
	}

	@Test
	void theDefaultBudgetIsOneBudgetSharedByEveryGroupWithoutItsOwn() {
		PolicyTable table = PolicyTable.of(Map.of(), Map.of(), Map.of("default", LimitParser.parse("300/1m")),
				Set.of("reports", "search"), PolicyOptions.DEFAULTS);
		StoreKeys keys = new StoreKeys("rl:");
		Policy reports = table.policies("anonymous", "reports").get(0);
		Policy search = table.policies("anonymous", "search").get(0);
		assertThat(reports.name()).isEqualTo("service-default");
		assertThat(keys.key(reports, Identity.SERVICE_ID)).isEqualTo(keys.key(search, Identity.SERVICE_ID))
			.startsWith("rl:service:default:")
			.endsWith(":all");
	}

	@Test
	void theWholeApisBudgetHasAKeyOfItsOwn() {
		PolicyTable table = PolicyTable.of(Map.of(), Map.of(),
				Map.of("all", LimitParser.parse("100/1s"), "default", LimitParser.parse("100/1s")), Set.of(),
				PolicyOptions.DEFAULTS);
		StoreKeys keys = new StoreKeys("rl:");
		assertThat(table.policies("anonymous", "default")).extracting((policy) -> keys.key(policy, Identity.SERVICE_ID))
			.satisfiesExactly((key) -> assertThat(key).startsWith("rl:service:default:"),
					(key) -> assertThat(key).startsWith("rl:service:all:"));
	}

	@Test
	void aGroupsModeSoftLimitAndCountReachItsBudgetAndTheBudgetItInherits() {
		PolicyOptions options = new PolicyOptions(ZoneOffset.UTC, Mode.ENFORCE, 0, Map.of(),
				Map.of("search",
						new PolicyOptions.GroupOptions(new PolicyOptions.Tuning(Mode.OBSERVE, 50), 0, Duration.ZERO),
						"login", new PolicyOptions.GroupOptions(new PolicyOptions.Tuning(Mode.WARN, null), 0,
								Duration.ZERO, CountedResponses.FAILURES)));
		PolicyTable table = PolicyTable.of(Map.of(), Map.of(), Map.of("default", LimitParser.parse("300/1m"), "login",
				LimitParser.parse("100/1m"), "all", LimitParser.parse("1000/1m")), Set.of("search", "login"), options);
		Policy search = table.policies("anonymous", "search").get(0);
		assertThat(search.name()).isEqualTo("service-default");
		assertThat(search.mode()).isEqualTo(Mode.OBSERVE);
		assertThat(search.warnAtPercent()).isEqualTo(50);
		Policy login = table.policies("anonymous", "login").get(0);
		assertThat(login.mode()).isEqualTo(Mode.WARN);
		assertThat(login.countsByOutcome()).as("a budget of its own counts as the group counts").isTrue();
		// the budget of every request is no group's: the global mode, every response
		Policy all = table.policies("anonymous", "login").get(1);
		assertThat(all.name()).isEqualTo("service-all");
		assertThat(all.mode()).isEqualTo(Mode.ENFORCE);
		assertThat(all.countsByOutcome()).isFalse();
	}

	@Test
	void startupChecksSeeTheServicesBudgetsWithoutAnyTier() {
		PolicyTable table = PolicyTable.of(Map.of(), Map.of(), Map.of("export", LimitParser.parse("5 concurrent")),
				Set.of("export"), PolicyOptions.DEFAULTS);
		assertThat(table.policiesOfGroup("export")).extracting(Policy::name).containsExactly("service-export");
	}

	@Test
	void failsOnABudgetOfAnUnknownGroup() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> PolicyTable.of(Map.of(), Map.of(), Map.of("exprot", LimitParser.parse("10/1m")),
					Set.of("export"), PolicyOptions.DEFAULTS))
			.withMessageContaining("unknown endpoint group 'exprot'");
	}

	@Test
	void serviceIsAReservedTierName() {
		assertThat(PolicyTable.isReservedTier("service")).isTrue();
	}

}
