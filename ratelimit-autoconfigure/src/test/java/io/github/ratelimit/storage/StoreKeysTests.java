package io.github.ratelimit.storage;

import java.time.Duration;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.github.ratelimit.policy.CountedResponses;
import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.InlineLimit;
import io.github.ratelimit.policy.KeyLimits;
import io.github.ratelimit.policy.LimitParser;
import io.github.ratelimit.policy.Mode;
import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.policy.PolicyOptions;
import io.github.ratelimit.policy.PolicyScope;
import io.github.ratelimit.policy.PolicyTable;

import static org.assertj.core.api.Assertions.assertThat;

class StoreKeysTests {

	private static final StoreKeys KEYS = new StoreKeys("rl:");

	// the keys of every kind of policy, byte for byte as they were when policies made
	// their own keys: buckets in Redis outlive an upgrade
	@Test
	void keysKeepTheirLayoutForEveryKindOfPolicy() {
		PolicyTable table = PolicyTable.build(
				Map.of("free", Map.of("user", Map.of("default", "10/1m"), "ip", Map.of("default", "10/1m")), "premium",
						Map.of("org", Map.of("default", "100/1m", Policy.ALL_GROUPS, "1000/month"))),
				Map.of("default", "100/1m, 1000/1h"), Set.of("export"),
				new PolicyOptions(ZoneOffset.UTC, Mode.ENFORCE, 0, Map.of(), Map.of("export",
						new PolicyOptions.GroupOptions(new PolicyOptions.Tuning(null, null), 2, Duration.ZERO))));
		assertThat(table.policies("free", "default")).extracting((policy) -> KEYS.key(policy, "alice"))
			.containsExactly("rl:user:default:1eae94a5:alice", "rl:ip:default:1eae94a5:alice",
					"rl:ip-backstop:default:3e93f746:alice");
		assertThat(table.policies("premium", "export")).extracting((policy) -> KEYS.key(policy, "acme"))
			.containsExactly("rl:org:default:1eae94a5:acme", "rl:org-all:all:4c47b0ee:acme",
					"rl:ip-backstop:default:3e93f746:acme");
		assertThat(KEYS.key(table.groupConcurrency("export", true), "alice"))
			.isEqualTo("rl:user-group:export:8faf57ca:alice");
		assertThat(KEYS.key(table.groupConcurrency("export", false), "1.2.3.4"))
			.isEqualTo("rl:ip-group:export:8faf57ca:1.2.3.4");
		assertThat(KEYS.key(table.inline(new InlineLimit("Reports.run", LimitParser.parse("10/1m")), true), "alice"))
			.isEqualTo("rl:user-inline:Reports.run:1eae94a5:alice");
		assertThat(
				KEYS.key(table.overridePolicy(Dimension.ORG, Policy.ALL_GROUPS, LimitParser.parse("5/month")), "acme"))
			.isEqualTo("rl:org-all:all:4c47b0ee:acme");
		assertThat(KEYS.key(table.overridePolicy(Dimension.USER, "default", LimitParser.parse("5/1m")), "alice"))
			.isEqualTo("rl:user:default:1eae94a5:alice");
		assertThat(KEYS.key(new Policy(PolicyScope.LOGIN, Dimension.IP, "failures", LimitParser.parse("10/1m")),
				"1.2.3.4"))
			.isEqualTo("rl:login:ip:failures:1eae94a5:1.2.3.4");
		assertThat(StoreKeys.limitFingerprint(table.policies("free", "default").get(0))).isEqualTo("e72c6268");
	}

	@Test
	void keysAreNamespacedKeptForOtherAmountsAndChangedForOtherWindows() {
		StoreKeys keys = new StoreKeys("app1:");
		Map<String, Map<String, Map<String, String>>> tiers = new LinkedHashMap<>();
		tiers.put("free", Map.of("user", Map.of("default", "10/1m")));
		Policy before = PolicyTable.build(tiers, Map.of(), Set.of()).policies("free", "default").get(0);
		tiers.put("free", Map.of("user", Map.of("default", "20/1m burst 30")));
		Policy moreTokens = PolicyTable.build(tiers, Map.of(), Set.of()).policies("free", "default").get(0);
		tiers.put("free", Map.of("user", Map.of("default", "10/1h")));
		Policy otherWindow = PolicyTable.build(tiers, Map.of(), Set.of()).policies("free", "default").get(0);
		assertThat(keys.key(before, "alice")).startsWith("app1:user:default:").endsWith(":alice");
		// other amounts keep the bucket and what was spent from it; another window starts
		// afresh
		assertThat(keys.key(moreTokens, "alice")).isEqualTo(keys.key(before, "alice"));
		assertThat(keys.key(otherWindow, "alice")).isNotEqualTo(keys.key(before, "alice"));
		assertThat(StoreKeys.limitFingerprint(moreTokens)).isNotEqualTo(StoreKeys.limitFingerprint(before));
	}

	@Test
	void eachKindOfWindowHasBucketsOfItsOwnAndALeakyBucketsRateShapesIt() {
		Policy fixed = new Policy("free", Dimension.USER, "default", LimitParser.parse("10/1m fixed"));
		Policy sliding = new Policy("free", Dimension.USER, "default", LimitParser.parse("10/1m sliding"));
		Policy leaky = new Policy("free", Dimension.USER, "default", LimitParser.parse("10/1m leaky"));
		Policy concurrent = new Policy("free", Dimension.USER, "default", LimitParser.parse("10 concurrent"));
		assertThat(List.of(fixed, sliding, leaky, concurrent)).extracting((policy) -> KEYS.key(policy, "alice"))
			.doesNotHaveDuplicates();
		// a window's count is counted in requests: other amounts keep it
		assertThat(KEYS.key(new Policy("free", Dimension.USER, "default", LimitParser.parse("20/1m sliding")), "alice"))
			.isEqualTo(KEYS.key(sliding, "alice"));
		assertThat(KEYS.key(new Policy("free", Dimension.USER, "default", LimitParser.parse("20/1m fixed")), "alice"))
			.isEqualTo(KEYS.key(fixed, "alice"));
		assertThat(KEYS.key(new Policy("free", Dimension.USER, "default", LimitParser.parse("10/1h fixed")), "alice"))
			.isNotEqualTo(KEYS.key(fixed, "alice"));
		assertThat(KEYS.key(new Policy("free", Dimension.USER, "default", LimitParser.parse("20/1m leaky")), "alice"))
			.isNotEqualTo(KEYS.key(leaky, "alice"));
	}

	@Test
	void overridesAndInheritedLimitsCountInTheBucketsOfTheTierLimit() {
		PolicyOptions options = new PolicyOptions(ZoneOffset.UTC, Mode.ENFORCE, 0, Map.of(), Map.of("search",
				new PolicyOptions.GroupOptions(new PolicyOptions.Tuning(Mode.OBSERVE, 50), 0, Duration.ZERO)));
		PolicyTable table = PolicyTable.build(Map.of("free", Map.of("org", Map.of("default", "100/1m"))), Map.of(),
				Set.of("search"), options);
		Policy tier = table.policies("free", "default").get(0);
		Policy override = table.overridePolicy(Dimension.ORG, "default", LimitParser.parse("500/1m"));
		Policy inherited = table.policies("free", "search").get(0);
		assertThat(inherited.mode()).isEqualTo(Mode.OBSERVE);
		assertThat(KEYS.key(override, "acme")).isEqualTo(KEYS.key(tier, "acme"));
		// a mode changes what is done, not what is counted
		assertThat(KEYS.key(inherited, "acme")).isEqualTo(KEYS.key(tier, "acme"));
	}

	@Test
	void backstopNeverSharesABucketWithATierIpLimit() {
		PolicyTable table = PolicyTable.build(Map.of("anonymous", Map.of("ip", Map.of("default", "100/1m"))),
				Map.of("default", "100/1m"), Set.of());
		var policies = table.policies("anonymous", "default");
		assertThat(KEYS.key(policies.get(0), "1.2.3.4")).isNotEqualTo(KEYS.key(policies.get(1), "1.2.3.4"));
	}

	@Test
	void idsThatAreNotPlainAndShortAreHashed() {
		Policy policy = new Policy("free", Dimension.USER, "default", LimitParser.parse("10/1m"));
		assertThat(KEYS.key(policy, "alice@example.com")).endsWith(":alice@example.com");
		String spaced = KEYS.key(policy, "alice smith");
		assertThat(spaced).doesNotContain("alice").contains(":#");
		assertThat(StoreKeys.escape("x".repeat(65))).startsWith("#").hasSize(23);
		assertThat(StoreKeys.escape("")).isEqualTo(StoreKeys.hashed(""));
	}

	@Test
	void eachNamespaceGetsItsOwnKeysForTheSamePolicy() {
		Policy policy = new Policy("free", Dimension.USER, "default", LimitParser.parse("10/1m"));
		StoreKeys app1 = new StoreKeys("app1:");
		StoreKeys app2 = new StoreKeys("app2:");
		assertThat(app1.key(policy, "alice")).startsWith("app1:");
		assertThat(app2.key(policy, "alice")).startsWith("app2:");
		assertThat(app1.key(policy, "alice")).startsWith("app1:");
		assertThat(new StoreKeys("app1:").key(policy, "bob")).isEqualTo(app1.key(policy, "bob"));
	}

	@Test
	void keysOfTheApplicationsChoosingNameTheKeyAndKeepEveryScopeApart() {
		PolicyTable table = PolicyTable.of(Map.of("free", Map.of()), Map.of(),
				new KeyLimits(Map.of("free", Map.of("repo", Map.of("default", LimitParser.parse("10/1m")))),
						Map.of("repo", Map.of("default", LimitParser.parse("10/1m")))),
				Set.of(), PolicyOptions.DEFAULTS);
		assertThat(table.policies("free", "default")).extracting((policy) -> KEYS.key(policy, "acme-app"))
			.containsExactly("rl:key.repo:default:1eae94a5:acme-app", "rl:key-backstop.repo:default:1eae94a5:acme-app");
		Policy inline = table
			.inline(new InlineLimit("Repos.issues", LimitParser.parse("10/1m"), CountedResponses.ALL, "repo"), true);
		assertThat(inline.name()).isEqualTo("inline-repo-Repos.issues");
		assertThat(KEYS.key(inline, "acme-app")).isEqualTo("rl:key-inline.repo:Repos.issues:1eae94a5:acme-app");
		// another key of the same values: other buckets
		Policy tenant = keyed("tenant");
		assertThat(KEYS.key(tenant, "acme-app")).isNotEqualTo(KEYS.key(keyed("repo"), "acme-app"));
		assertThat(KEYS.key(tenant, "acme-app")).isNotEqualTo(
				KEYS.key(new Policy("free", Dimension.USER, "default", LimitParser.parse("10/1m")), "acme-app"));
	}

	@Test
	void keyValuesThatCouldForgeAnotherKeyOrPickASlotAreHashed() {
		Policy repo = keyed("repo");
		String plain = KEYS.key(repo, "acme-app");
		String prefix = plain.substring(0, plain.length() - "acme-app".length());
		// a value shaped as the tail of another key, a hash tag, a separator, a control
		// character, a long value: each ends in a hash of its own, under the policy's
		// prefix
		for (String forged : new String[] { "acme-app\nrl:user:default:1eae94a5:alice", "{slot}", "x{a}y", "acme app",
				"acme\u0000", "#abc", "a".repeat(65), "" }) {
			String key = KEYS.key(repo, forged);
			assertThat(key).as(forged).startsWith(prefix);
			String id = key.substring(prefix.length());
			assertThat(id).as(forged).startsWith("#").hasSize(23).doesNotContain("{", "}", ":", "\n");
			assertThat(id).isEqualTo(StoreKeys.hashed(forged));
		}
		// distinct values, distinct buckets
		assertThat(KEYS.key(repo, "{slot}")).isNotEqualTo(KEYS.key(repo, "x{a}y"));
	}

	private static Policy keyed(String key) {
		return Policy.keyed("free", key, "default", LimitParser.parse("10/1m"), Mode.ENFORCE, 0, CountedResponses.ALL);
	}

}
