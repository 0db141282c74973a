package io.github.ratelimit.metrics;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import io.github.ratelimit.control.AccessRule;
import io.github.ratelimit.control.BanRules;
import io.github.ratelimit.control.RuntimeControl;
import io.github.ratelimit.core.Decision;
import io.github.ratelimit.core.DenialReason;
import io.github.ratelimit.core.RateLimiter;
import io.github.ratelimit.identity.ClientIpResolver;
import io.github.ratelimit.identity.Identifier;
import io.github.ratelimit.policy.Classification;
import io.github.ratelimit.policy.Mode;
import io.github.ratelimit.policy.PolicyOptions;
import io.github.ratelimit.policy.PolicyOptions.GroupOptions;
import io.github.ratelimit.policy.PolicyOptions.Tuning;
import io.github.ratelimit.policy.PolicyRegistry;
import io.github.ratelimit.policy.PolicyTable;
import io.github.ratelimit.storage.RateLimitStore;
import io.github.ratelimit.storage.StoreUnavailableException;
import io.github.ratelimit.storage.memory.InMemoryControlStore;
import io.github.ratelimit.storage.memory.InMemoryRateLimitStore;
import io.github.ratelimit.test.ManualTimeMeter;
import io.github.ratelimit.test.TestRequest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The decision meters in a {@link SimpleMeterRegistry}: what is counted under which
 * bounded tags, and that no id ever becomes a tag value.
 */
class RateLimitMetricsTests {

	private final ManualTimeMeter time = new ManualTimeMeter(Instant.parse("2026-03-01T10:00:00Z"));

	private final InMemoryRateLimitStore store = new InMemoryRateLimitStore(10_000, this.time, this.time);

	private final PolicyTable table = PolicyTable.build(
			Map.of("anonymous", Map.of("ip", Map.of("default", "2/1h", "observed", "1/1h", "soft", "10/1h"))), Map.of(),
			Set.of("observed", "soft"),
			new PolicyOptions(ZoneOffset.UTC, Mode.ENFORCE, 0, Map.of(),
					Map.of("observed", new GroupOptions(new Tuning(Mode.OBSERVE, null), 0, Duration.ZERO), "soft",
							new GroupOptions(new Tuning(null, 50), 0, Duration.ZERO))));

	private final RuntimeControl control = new RuntimeControl(new InMemoryControlStore(this.time),
			new PolicyRegistry(this.table), List.of(AccessRule.parse(AccessRule.Access.DENY, "192.0.2.0/24")),
			new BanRules(new BanRules.Settings(2, null, null, null, null), Map.of(), Map.of()), this.time,
			Duration.ofSeconds(1));

	private final RateLimiter limiter = RateLimiter
		.builder(new Identifier(List.of(), new ClientIpResolver(List.of(), 32, 64), this.table.tiers(), "anonymous",
				"authenticated"), this.store)
		.control(this.control)
		.clock(this.time)
		.build();

	private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

	private final RateLimitMetrics metrics = new RateLimitMetrics(this.limiter, this.store, this.control);

	RateLimitMetricsTests() {
		this.metrics.bindTo(this.registry);
	}

	private void decide(String address, String group) {
		Decision decision = this.limiter.decide(TestRequest.from(address), Classification.of(group, 1));
		this.metrics.onDecision(decision, 1_000_000);
	}

	private double decisions(String outcome, String scope, String group, String mode) {
		var counter = this.registry.find(RateLimitMetrics.DECISIONS)
			.tags("outcome", outcome, "scope", scope, "tier", "anonymous", "group", group, "mode", mode)
			.counter();
		return (counter != null) ? counter.count() : 0;
	}

	@Test
	void decisionsAreCountedByOutcomeScopeTierGroupAndMode() {
		for (int i = 0; i < 3; i++) {
			decide("203.0.113.1", "default");
		}
		assertThat(decisions("allowed", "ip", "default", "enforce")).isEqualTo(2);
		assertThat(decisions("rejected", "ip", "default", "enforce")).isEqualTo(1);
		decide("203.0.113.2", "observed");
		decide("203.0.113.2", "observed");
		assertThat(decisions("allowed", "none", "observed", "none")).isEqualTo(1);
		assertThat(decisions("observed", "ip", "observed", "observe")).isEqualTo(1);
		decide("192.0.2.9", "default");
		assertThat(decisions("denied", "none", "default", "none")).isEqualTo(1);
		assertThat(this.registry.get(RateLimitMetrics.LATENCY).tag("store", "memory").timer().count()).isEqualTo(6);
	}

	@Test
	void geoAndReputationRefusalsAreCountedByReason() {
		Decision.Denied geo = new Decision.Denied(
				this.limiter.decide(TestRequest.from("192.0.2.9"), Classification.of("default", 1)).identity(),
				Classification.of("default", 1), this.time.instant(), DenialReason.GEO);
		this.metrics.onDecision(geo, 1_000);
		this.metrics.onDecision(geo, 1_000);
		this.metrics.onDecision(
				new Decision.Denied(geo.identity(), geo.classification(), geo.decidedAt(), DenialReason.REPUTATION),
				1_000);
		this.metrics.onDecision(new Decision.Denied(geo.identity(), geo.classification(), geo.decidedAt()), 1_000);
		assertThat(this.registry.get(RateLimitMetrics.GATE_REFUSALS).tag("reason", "geo").counter().count())
			.isEqualTo(2);
		assertThat(this.registry.get(RateLimitMetrics.GATE_REFUSALS).tag("reason", "reputation").counter().count())
			.isEqualTo(1);
		// a deny rule is no gate screen: counted as denied only
		assertThat(this.registry.find(RateLimitMetrics.GATE_REFUSALS).counters()).hasSize(2);
		assertThat(decisions("denied", "none", "default", "none")).isEqualTo(4);
	}

	@Test
	void softLimitWarningsAndBansAreCounted() {
		for (int i = 0; i < 6; i++) {
			decide("203.0.113.3", "soft");
		}
		// from half of 10 used on: 5 left after the 5th request, then 4
		assertThat(this.registry.get(RateLimitMetrics.WARNINGS)
			.tags("code", "near-limit", "scope", "ip", "tier", "anonymous", "group", "soft")
			.counter()
			.count()).isEqualTo(2);
		for (int i = 0; i < 5; i++) {
			decide("203.0.113.4", "default");
		}
		assertThat(decisions("banned", "none", "default", "none")).isEqualTo(1);
		assertThat(this.registry.get(RateLimitMetrics.BANS).functionCounter().count()).isEqualTo(1);
	}

	@Test
	void storeFailuresAreCountedByKind() {
		RateLimitStore failing = (checks) -> {
			throw new StoreUnavailableException(StoreUnavailableException.Kind.TIMEOUT, "silent", null);
		};
		RateLimiter limiter = RateLimiter
			.builder(new Identifier(List.of(), new ClientIpResolver(List.of(), 32, 64), this.table.tiers(), "anonymous",
					"authenticated"), failing)
			.policies(this.table)
			.clock(this.time)
			.build();
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		RateLimitMetrics metrics = new RateLimitMetrics(limiter, failing, null);
		metrics.bindTo(registry);
		for (int i = 0; i < 3; i++) {
			metrics.onDecision(limiter.decide(TestRequest.from("203.0.113.9"), Classification.of("default", 1)), 1);
		}
		assertThat(registry.get(RateLimitMetrics.STORE_ERRORS).tags("kind", "timeout").functionCounter().count())
			.isEqualTo(3);
		assertThat(registry.get(RateLimitMetrics.STORE_ERRORS).tags("kind", "error").functionCounter().count())
			.isZero();
		assertThat(registry.get(RateLimitMetrics.DECISIONS).tags("outcome", "error").counter().count()).isEqualTo(3);
	}

	@Test
	void admissionsFromTheReservesOfHotBucketsAndTheTokensHeldAreMeasured() {
		FailingRemoteStore remote = new FailingRemoteStore(this.store);
		PolicyTable busy = PolicyTable.build(Map.of("anonymous", Map.of("ip", Map.of("default", "100000/1d"))),
				Map.of(), Set.of());
		RateLimiter limiter = RateLimiter
			.builder(new Identifier(List.of(), new ClientIpResolver(List.of(), 32, 64), busy.tiers(), "anonymous",
					"authenticated"), remote)
			.policies(busy)
			.clock(this.time)
			.build();
		SimpleMeterRegistry registry = new SimpleMeterRegistry();
		new RateLimitMetrics(limiter, remote, null).bindTo(registry);
		for (int i = 0; i < 300; i++) {
			limiter.decide(TestRequest.from("203.0.113.9"), Classification.of("default", 1));
		}
		// the hundredth decision makes the bucket hot: it and the rest come from reserves
		// of 100
		assertThat(registry.get(RateLimitMetrics.LOCAL_ADMISSIONS).functionCounter().count()).isEqualTo(201);
		assertThat(registry.get(RateLimitMetrics.RESERVED_TOKENS).gauge().value()).isBetween(1.0, 100.0);
		assertThat(this.registry.find(RateLimitMetrics.LOCAL_ADMISSIONS).functionCounter())
			.as("a store in memory takes no reserves")
			.isNull();
	}

	@Test
	void noIdEverBecomesATagValue() {
		decide("203.0.113.5", "default");
		decide("192.0.2.10", "default");
		for (Meter meter : this.registry.getMeters()) {
			for (Tag tag : meter.getId().getTags()) {
				assertThat(tag.getValue()).doesNotContain("203.0.113").doesNotContain("192.0.2");
			}
		}
		assertThat(this.registry.get(RateLimitMetrics.WAITING).gauge().value()).isZero();
	}

}
