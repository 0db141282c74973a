package io.github.ratelimit.policy;

import java.time.Duration;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class PolicyTableTests {

	@Test
	void groupLimitWinsOverDefaultAndBackstopComesLast() {
		// a group without its own limit shares the one "default" bucket of its dimension
		PolicyTable table = PolicyTable.build(Map.of("premium",
				Map.of("user", Map.of("default", "1000/1m", "auth", "500/1m"), "org", Map.of("default", "5000/1m"))),
				Map.of("default", "2000/1m"), Set.of("auth"));
		assertThat(table.policies("premium", "auth")).extracting(Policy::name)
			.containsExactly("premium-org-default", "premium-user-auth", "backstop-ip-default");
		assertThat(table.policies("premium", "auth").get(1).limit().spec()).isEqualTo("500/1m");
		assertThat(table.policies("premium", "auth").get(0)).isSameAs(table.policies("premium", "other").get(0));
		assertThat(table.policies("premium", "other")).extracting(Policy::dimension)
			.containsExactly(Dimension.ORG, Dimension.USER, Dimension.IP);
	}

	@Test
	void unconfiguredTierGetsTheBackstopOnly() {
		PolicyTable table = PolicyTable.build(Map.of(), Map.of("default", "2000/1m"), Set.of());
		assertThat(table.policies("nobody", "default")).extracting(Policy::name).containsExactly("backstop-ip-default");
	}

	@Test
	void failsNamingWhereAMalformedLimitIs() {
		// the table knows no property names: the configuration's mapper names those
		assertThatIllegalArgumentException()
			.isThrownBy(() -> PolicyTable.build(Map.of("premium", Map.of("user", Map.of("auth", "lots/1m"))), Map.of(),
					Set.of("auth")))
			.withMessageContaining("tier 'premium', dimension 'user', group 'auth'")
			.withMessageContaining("'lots/1m' is not of the form")
			.withMessageNotContaining("ratelimit.");
	}

	@Test
	void failsOnAnUnknownGroup() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> PolicyTable.build(Map.of("premium", Map.of("user", Map.of("exprot", "10/1m"))), Map.of(),
					Set.of("export")))
			.withMessageContaining("unknown endpoint group 'exprot'");
	}

	@Test
	void failsOnAnUnknownDimension() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> PolicyTable.build(Map.of("premium", Map.of("usr", Map.of("default", "10/1m"))), Map.of(),
					Set.of()))
			.withMessageContaining("unknown dimension 'usr'");
	}

	@Test
	void failsOnABackstopOfAnUnknownGroup() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> PolicyTable.build(Map.of(), Map.of("nope", "10/1m"), Set.of()))
			.withMessageContaining("unknown endpoint group 'nope'");
	}

	@Test
	void overridePoliciesCountInTheBucketsOfTheTierLimitTheyReplace() {
		PolicyTable table = PolicyTable.build(Map.of("free", Map.of("org", Map.of("default", "100/1m"))), Map.of(),
				Set.of("export"));
		Policy tier = table.policies("free", "default").get(0);
		Policy override = table.overridePolicy(Dimension.ORG, "default", LimitParser.parse("500/1m"));
		assertThat(override.name()).isEqualTo("override-org-default");
		assertThat(override.scope()).isEqualTo(PolicyScope.OVERRIDE);
		assertThat(override.tier()).isEqualTo("override");
		assertThat(tier.scope()).isEqualTo(PolicyScope.TIER);
		assertThatIllegalArgumentException()
			.isThrownBy(() -> table.overridePolicy(Dimension.ORG, "nope", LimitParser.parse("1/1m")))
			.withMessageContaining("unknown endpoint group 'nope'");
	}

	@Test
	void backstopIsAPolicyOfItsOwnScopeNamedAsBefore() {
		PolicyTable table = PolicyTable.build(Map.of("anonymous", Map.of("ip", Map.of("default", "100/1m"))),
				Map.of("default", "100/1m"), Set.of());
		var policies = table.policies("anonymous", "default");
		assertThat(policies).extracting(Policy::scope).containsExactly(PolicyScope.TIER, PolicyScope.BACKSTOP);
		assertThat(policies).extracting(Policy::name).containsExactly("anonymous-ip-default", "backstop-ip-default");
		assertThat(policies.get(1).isBackstop()).isTrue();
		assertThat(table.backstop("default")).containsExactly(policies.get(1));
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new Policy("backstop", Dimension.IP, "default", LimitParser.parse("1/1m")))
			.withMessageContaining("names the BACKSTOP scope");
	}

	@Test
	void severalBandwidthsAreNamedByWindow() {
		PolicyTable table = PolicyTable.build(Map.of("anonymous", Map.of("ip", Map.of("default", "50/1m, 500/1h"))),
				Map.of(), Set.of());
		Policy policy = table.policies("anonymous", "default").get(0);
		assertThat(policy.bandwidthName(0)).isEqualTo("anonymous-ip-default-1m");
		assertThat(policy.bandwidthName(1)).isEqualTo("anonymous-ip-default-1h");
	}

	@Test
	void tierWideQuotaAppliesToEveryGroupWithItsOwnBuckets() {
		PolicyTable table = PolicyTable.build(
				Map.of("premium", Map.of("org", Map.of("default", "100/1m", Policy.ALL_GROUPS, "1000/month"))),
				Map.of(), Set.of("export"));
		assertThat(table.policies("premium", "export")).extracting(Policy::name)
			.containsExactly("premium-org-default", "premium-org-all");
		assertThat(table.policies("premium", "default").get(1).scope()).isEqualTo(PolicyScope.TIER);
	}

	@Test
	void groupModeAndSoftLimitReachTheLimitsItsRequestsInherit() {
		PolicyOptions options = new PolicyOptions(ZoneOffset.UTC, Mode.WARN, 90,
				Map.of("free", new PolicyOptions.Tuning(Mode.ENFORCE, null)), Map.of("search",
						new PolicyOptions.GroupOptions(new PolicyOptions.Tuning(Mode.OBSERVE, 50), 0, Duration.ZERO)));
		PolicyTable table = PolicyTable.build(
				Map.of("free", Map.of("ip", Map.of("default", "10/1m")), "paid",
						Map.of("ip", Map.of("default", "99/1m"))),
				Map.of("default", "1000/1m"), Set.of("search"), options);
		Policy inherited = table.policies("free", "search").get(0);
		assertThat(inherited.name()).isEqualTo("free-ip-default");
		assertThat(inherited.mode()).isEqualTo(Mode.OBSERVE);
		assertThat(inherited.warnAtPercent()).isEqualTo(50);
		assertThat(table.policies("free", "default").get(0).mode()).as("the tier's mode").isEqualTo(Mode.ENFORCE);
		assertThat(table.policies("paid", "default").get(0).mode()).as("the global mode").isEqualTo(Mode.WARN);
		assertThat(table.policies("paid", "default").get(0).warnAtPercent()).isEqualTo(90);
		assertThat(table.policies("paid", "search").get(1).mode()).as("the backstop follows the group")
			.isEqualTo(Mode.OBSERVE);
	}

	@Test
	void groupConcurrencyCapsEachCallerWhateverTheTier() {
		PolicyOptions options = new PolicyOptions(ZoneOffset.UTC, Mode.ENFORCE, 0, Map.of(), Map.of("export",
				new PolicyOptions.GroupOptions(new PolicyOptions.Tuning(null, null), 2, Duration.ZERO)));
		PolicyTable table = PolicyTable.build(Map.of(), Map.of(), Set.of("export"), options);
		assertThat(table.groupConcurrency("export", true).limit().bandwidths())
			.containsExactly(new ConcurrencyLimit(2));
		assertThat(table.groupConcurrency("export", false).dimension()).isEqualTo(Dimension.IP);
		assertThat(table.groupConcurrency("default", true)).isNull();
		assertThat(table.policiesOfGroup("export")).extracting(Policy::name)
			.containsExactly("group-user-export", "group-ip-export");
	}

	@Test
	void handlerQuotasCountInTheConfiguredZone() {
		ZoneId zone = ZoneId.of("America/New_York");
		PolicyOptions options = new PolicyOptions(zone, Mode.ENFORCE, 0, Map.of(), Map.of());
		PolicyTable table = PolicyTable.build(Map.of(), Map.of(), Set.of(), options);
		Policy policy = table.inline(new InlineLimit("Reports.run", LimitParser.parse("100/day")), true);
		assertThat(policy.limit().bandwidths()).containsExactly(new CalendarQuota(100, CalendarPeriod.DAY, zone));
	}

	@Test
	void reservedTierNamesAreRefused() {
		assertThatIllegalArgumentException().isThrownBy(
				() -> PolicyTable.build(Map.of("group", Map.of("ip", Map.of("default", "1/1m"))), Map.of(), Set.of()))
			.withMessageContaining("'group' is a reserved tier name");
		assertThat(PolicyTable.isReservedTier("backstop")).isTrue();
		assertThat(PolicyTable.isReservedTier("premium")).isFalse();
	}

	@Test
	void limitsByKeyStandAtTheKeyDimensionsPlaceAndNameTheirKey() {
		Limit limit = LimitParser.parse("10/1m");
		PolicyTable table = PolicyTable.of(
				Map.of("free", Map.of("user", Map.of("default", limit), "ip", Map.of("default", limit))),
				Map.of("default", limit), new KeyLimits(Map.of("free", Map.of("tenant", Map.of("default", limit))),
						Map.of("repo", Map.of("repos", limit))),
				Set.of("repos"), PolicyOptions.DEFAULTS);
		// tie-break order: org, user, token, then keys, then ip; every tier's after the
		// tier's own
		assertThat(table.policies("free", "repos")).extracting(Policy::name)
			.containsExactly("free-user-default", "free-tenant-default", "backstop-repo-repos", "free-ip-default",
					"backstop-ip-default");
		assertThat(table.policies("free", "repos").get(1).keyName()).isEqualTo("tenant");
		assertThat(table.policies("free", "repos").get(1).dimension()).isEqualTo(Dimension.KEY);
		assertThat(table.backstop("repos")).extracting(Policy::name)
			.containsExactly("backstop-repo-repos", "backstop-ip-default");
		assertThat(table.policiesOfGroup("repos")).extracting(Policy::name).contains("backstop-repo-repos");
	}

	@Test
	void limitsByKeyAreCheckedAsTheTiersAre() {
		Limit limit = LimitParser.parse("10/1m");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> PolicyTable.of(Map.of(), Map.of(),
					new KeyLimits(Map.of(), Map.of("ip", Map.of("default", limit))), Set.of(), PolicyOptions.DEFAULTS))
			.withMessageContaining("invalid key name 'ip'");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> PolicyTable.of(Map.of(), Map.of(),
					new KeyLimits(Map.of(), Map.of("repo", Map.of("repos", limit))), Set.of(), PolicyOptions.DEFAULTS))
			.withMessageContaining("unknown endpoint group 'repos'");
		assertThatIllegalArgumentException().isThrownBy(() -> PolicyTable.of(Map.of(), Map.of(),
				new KeyLimits(Map.of("gold", Map.of("repo", Map.of("default", limit))), Map.of()), Set.of(),
				PolicyOptions.DEFAULTS))
			.withMessageContaining("tier 'gold'");
	}

}
