package io.github.ratelimit.policy;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.InvalidRateLimitConfigurationException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class PolicyTableTests {

	@Test
	void groupLimitWinsOverDefaultAndBackstopComesLast() {
		// a group without its own limit shares the one "default" bucket of its dimension
		PolicyTable table = PolicyTable.build(Map.of("premium",
				Map.of("user", Map.of("default", "1000/1m", "auth", "500/1m"), "org", Map.of("default", "5000/1m"))),
				Map.of("default", "2000/1m"), Set.of("auth"), "rl:");
		assertThat(table.policies("premium", "auth")).extracting(Policy::name)
			.containsExactly("premium-org-default", "premium-user-auth", "backstop-ip-default");
		assertThat(table.policies("premium", "auth").get(1).limit().spec()).isEqualTo("500/1m");
		assertThat(table.policies("premium", "auth").get(0)).isSameAs(table.policies("premium", "other").get(0));
		assertThat(table.policies("premium", "other")).extracting(Policy::dimension)
			.containsExactly(Dimension.ORG, Dimension.USER, Dimension.IP);
	}

	@Test
	void unconfiguredTierGetsTheBackstopOnly() {
		PolicyTable table = PolicyTable.build(Map.of(), Map.of("default", "2000/1m"), Set.of(), "rl:");
		assertThat(table.policies("nobody", "default")).extracting(Policy::name).containsExactly("backstop-ip-default");
	}

	@Test
	void failsNamingThePropertyOfAMalformedLimit() {
		assertThatExceptionOfType(InvalidRateLimitConfigurationException.class)
			.isThrownBy(() -> PolicyTable.build(Map.of("premium", Map.of("user", Map.of("auth", "lots/1m"))), Map.of(),
					Set.of("auth"), "rl:"))
			.satisfies((ex) -> {
				assertThat(ex.getProperty()).isEqualTo("ratelimit.tiers.premium.user.auth");
				assertThat(ex.getValue()).isEqualTo("lots/1m");
				assertThat(ex.getExample()).isEqualTo(LimitParser.EXAMPLE);
			});
	}

	@Test
	void failsOnAnUnknownGroup() {
		assertThatExceptionOfType(InvalidRateLimitConfigurationException.class)
			.isThrownBy(() -> PolicyTable.build(Map.of("premium", Map.of("user", Map.of("exprot", "10/1m"))), Map.of(),
					Set.of("export"), "rl:"))
			.satisfies((ex) -> assertThat(ex.getProperty()).isEqualTo("ratelimit.tiers.premium.user.exprot"))
			.withMessageContaining("unknown endpoint group 'exprot'");
	}

	@Test
	void failsOnAnUnknownDimension() {
		assertThatExceptionOfType(InvalidRateLimitConfigurationException.class)
			.isThrownBy(() -> PolicyTable.build(Map.of("premium", Map.of("usr", Map.of("default", "10/1m"))), Map.of(),
					Set.of(), "rl:"))
			.satisfies((ex) -> assertThat(ex.getProperty()).isEqualTo("ratelimit.tiers.premium.usr"));
	}

	@Test
	void failsOnABackstopOfAnUnknownGroup() {
		assertThatExceptionOfType(InvalidRateLimitConfigurationException.class)
			.isThrownBy(() -> PolicyTable.build(Map.of(), Map.of("nope", "10/1m"), Set.of(), "rl:"))
			.satisfies((ex) -> assertThat(ex.getProperty()).isEqualTo("ratelimit.ip.nope"));
	}

	@Test
	void storeKeysAreNamespacedAndChangeWhenTheLimitChanges() {
		Map<String, Map<String, Map<String, String>>> tiers = new LinkedHashMap<>();
		tiers.put("free", Map.of("user", Map.of("default", "10/1m")));
		Policy before = PolicyTable.build(tiers, Map.of(), Set.of(), "app1:").policies("free", "default").get(0);
		tiers.put("free", Map.of("user", Map.of("default", "20/1m")));
		Policy after = PolicyTable.build(tiers, Map.of(), Set.of(), "app1:").policies("free", "default").get(0);
		assertThat(before.storeKey("alice")).startsWith("app1:user:default:").endsWith(":alice");
		assertThat(before.storeKey("alice")).isNotEqualTo(after.storeKey("alice"));
	}

	@Test
	void backstopNeverSharesABucketWithATierIpLimit() {
		PolicyTable table = PolicyTable.build(Map.of("anonymous", Map.of("ip", Map.of("default", "100/1m"))),
				Map.of("default", "100/1m"), Set.of(), "rl:");
		var policies = table.policies("anonymous", "default");
		assertThat(policies.get(0).storeKey("1.2.3.4")).isNotEqualTo(policies.get(1).storeKey("1.2.3.4"));
	}

	@Test
	void severalBandwidthsAreNamedByWindow() {
		PolicyTable table = PolicyTable.build(Map.of("anonymous", Map.of("ip", Map.of("default", "50/1m, 500/1h"))),
				Map.of(), Set.of(), "rl:");
		Policy policy = table.policies("anonymous", "default").get(0);
		assertThat(policy.bandwidthName(0)).isEqualTo("anonymous-ip-default-1m");
		assertThat(policy.bandwidthName(1)).isEqualTo("anonymous-ip-default-1h");
	}

}
