package io.github.ratelimit.core;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import io.github.ratelimit.control.BanRules;
import io.github.ratelimit.control.RuntimeControl;
import io.github.ratelimit.identity.ClientIpResolver;
import io.github.ratelimit.identity.Identifier;
import io.github.ratelimit.identity.Identity;
import io.github.ratelimit.policy.Classification;
import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.LimitParser;
import io.github.ratelimit.policy.PolicyOptions;
import io.github.ratelimit.policy.PolicyRegistry;
import io.github.ratelimit.policy.PolicyTable;
import io.github.ratelimit.storage.BandwidthResult;
import io.github.ratelimit.storage.CheckResult;
import io.github.ratelimit.storage.RateLimitStore;
import io.github.ratelimit.storage.StoreDecision;
import io.github.ratelimit.storage.memory.InMemoryControlStore;
import io.github.ratelimit.storage.memory.InMemoryRateLimitStore;
import io.github.ratelimit.test.ManualTimeMeter;
import io.github.ratelimit.test.TestRequest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A budget of the service, shared by every caller of a group, decided in the same
 * decision as the caller's own limits: all or nothing, and named as the reason only when
 * it is the more actionable one. Over the in-memory store with a manual clock.
 */
class RateLimiterServiceLimitTests {

	private final ManualTimeMeter time = new ManualTimeMeter();

	private final InMemoryRateLimitStore store = new InMemoryRateLimitStore(10_000, this.time);

	/**
	 * Per address: 3 an hour in export, one every 30 s in the other groups together; for
	 * every caller together: 5 a minute of export, one every 30 s of slow, one a minute
	 * of slower (quiet has no budget of the service).
	 */
	private final PolicyTable table = PolicyTable.of(
			Map.of("anonymous",
					Map.of("ip", Map.of("default", LimitParser.parse("1/30s"), "export", LimitParser.parse("3/1h")))),
			Map.of(), Map.of("export", LimitParser.parse("5/1m"), "slow", LimitParser.parse("1/30s"), "slower",
					LimitParser.parse("1/1m")),
			Set.of("export", "slow", "slower", "quiet"), PolicyOptions.DEFAULTS);

	private final RateLimiter limiter = RateLimiter.builder(identifier(), this.store)
		.policies(this.table)
		.clock(this.time)
		.build();

	private Identifier identifier() {
		return new Identifier(List.of(), new ClientIpResolver(List.of(), 32, 64), this.table.tiers(), "anonymous",
				"authenticated");
	}

	@Test
	void aBurstFromManyCallersGetsExactlyTheBudgetAndTheRefusalNamesTheService() {
		for (int i = 1; i <= 5; i++) {
			assertThat(decide("203.0.113." + i, "export").outcome()).isEqualTo(Outcome.ALLOWED);
		}
		Decision.Rejected refused = Decisions.rejected(decide("203.0.113.6", "export"));
		PolicyState binding = refused.binding();
		assertThat(binding.dimension()).isEqualTo(Dimension.SERVICE);
		assertThat(binding.name()).isEqualTo("service-export");
		assertThat(binding.id()).isEqualTo(Identity.SERVICE_ID);
		assertThat(refused.violatedPolicies()).containsExactly("service-export");
		// one token every 12 s
		assertThat(refused.retryAfterSeconds()).isEqualTo(12);
		// the refusal took nothing from the caller's own budget: a minute later the
		// service is whole again, and the caller has its 3 of the hour
		this.time.advance(Duration.ofMinutes(1));
		for (int i = 0; i < 3; i++) {
			assertThat(decide("203.0.113.6", "export").outcome()).isEqualTo(Outcome.ALLOWED);
		}
		assertThat(Decisions.rejected(decide("203.0.113.6", "export")).binding().dimension()).isEqualTo(Dimension.IP);
	}

	@Test
	void aCallerRefusedByItsOwnLimitTakesNothingFromTheService() {
		for (int i = 0; i < 3; i++) {
			assertThat(decide("198.51.100.1", "export").outcome()).isEqualTo(Outcome.ALLOWED);
		}
		for (int i = 0; i < 10; i++) {
			Decision.Rejected own = Decisions.rejected(decide("198.51.100.1", "export"));
			assertThat(own.binding().dimension()).isEqualTo(Dimension.IP);
			assertThat(own.violatedPolicies()).containsExactly("anonymous-ip-export");
		}
		// 2 of the 5 left for every other caller, whatever the refused one tried
		assertThat(decide("198.51.100.2", "export").outcome()).isEqualTo(Outcome.ALLOWED);
		assertThat(decide("198.51.100.3", "export").outcome()).isEqualTo(Outcome.ALLOWED);
		assertThat(Decisions.rejected(decide("198.51.100.4", "export")).binding().dimension())
			.isEqualTo(Dimension.SERVICE);
	}

	@Test
	void onATieTheCallersOwnLimitIsNamed() {
		// the caller spends its own budget, another caller the service's: both 30 s
		assertThat(decide("192.0.2.1", "quiet").outcome()).isEqualTo(Outcome.ALLOWED);
		assertThat(decide("192.0.2.2", "slow").outcome()).isEqualTo(Outcome.ALLOWED);
		Decision.Rejected refused = Decisions.rejected(decide("192.0.2.1", "slow"));
		assertThat(refused.binding().dimension()).isEqualTo(Dimension.IP);
		assertThat(refused.retryAfterSeconds()).isEqualTo(30);
		assertThat(refused.violatedPolicies()).containsExactly("anonymous-ip-default", "service-slow");
	}

	@Test
	void theServiceIsNamedWhenItMakesTheCallerWaitLonger() {
		assertThat(decide("192.0.2.1", "quiet").outcome()).isEqualTo(Outcome.ALLOWED);
		assertThat(decide("192.0.2.2", "slower").outcome()).isEqualTo(Outcome.ALLOWED);
		// own: 30 s, service: 60 s
		Decision.Rejected refused = Decisions.rejected(decide("192.0.2.1", "slower"));
		assertThat(refused.binding().dimension()).isEqualTo(Dimension.SERVICE);
		assertThat(refused.retryAfterSeconds()).isEqualTo(60);
		assertThat(refused.violatedPolicies()).containsExactly("service-slower", "anonymous-ip-default");
	}

	@ParameterizedTest
	@CsvSource({ "29500, 29800, ip, 30", "27500, 29500, service, 30", "30000, 30000, ip, 30", "29800, 29500, ip, 30",
			"1, 1001, service, 2" })
	void theServiceIsNamedOnlyWhenItsRetryAfterIsLongerThanTheCallersOwn(long ownWait, long serviceWait, String named,
			long retryAfter) {
		// a store that answers both short, with these waits to the millisecond (as the
		// Redis script does)
		RateLimitStore store = (checks) -> new StoreDecision(false, checks.stream()
			.map((check) -> new CheckResult(false, List.of(new BandwidthResult(0,
					(check.policy().dimension() == Dimension.SERVICE) ? serviceWait : ownWait, 60_000, 60_000))))
			.toList());
		RateLimiter limiter = RateLimiter.builder(identifier(), store).policies(this.table).clock(this.time).build();
		Decision.Rejected refused = Decisions
			.rejected(limiter.decide(TestRequest.from("192.0.2.9"), Classification.of("slow", 1)));
		assertThat(refused.binding().dimension().key()).isEqualTo(named);
		assertThat(refused.retryAfterSeconds()).isEqualTo(retryAfter);
	}

	@Test
	void aRefusalByTheServiceNeverCountsTowardsABan() {
		// three refusals within a minute ban a caller
		PolicyTable table = PolicyTable.of(
				Map.of("anonymous", Map.of("ip", Map.of("default", LimitParser.parse("3/1h")))), Map.of(),
				Map.of("default", LimitParser.parse("5/1h")), Set.of(), PolicyOptions.DEFAULTS);
		RuntimeControl control = new RuntimeControl(new InMemoryControlStore(this.time), new PolicyRegistry(table),
				List.of(), new BanRules(new BanRules.Settings(3, Duration.ofMinutes(1), Duration.ofHours(1),
						Duration.ofDays(1), Duration.ofDays(1)), Map.of(), Map.of()),
				this.time, Duration.ofSeconds(1));
		RateLimiter limiter = RateLimiter.builder(identifier(), this.store).control(control).clock(this.time).build();
		Classification request = Classification.of("default", 1);
		for (int i = 0; i < 3; i++) {
			assertThat(limiter.decide(TestRequest.from("203.0.113.1"), request).outcome()).isEqualTo(Outcome.ALLOWED);
		}
		// the caller's own limit refuses, and bans
		for (int i = 0; i < 3; i++) {
			assertThat(limiter.decide(TestRequest.from("203.0.113.1"), request).outcome()).isEqualTo(Outcome.REJECTED);
		}
		assertThat(limiter.decide(TestRequest.from("203.0.113.1"), request).outcome()).isEqualTo(Outcome.BANNED);
		assertThat(limiter.decide(TestRequest.from("203.0.113.2"), request).outcome()).isEqualTo(Outcome.ALLOWED);
		assertThat(limiter.decide(TestRequest.from("203.0.113.3"), request).outcome()).isEqualTo(Outcome.ALLOWED);
		// the busy service refuses as often, and bans no one
		for (int i = 0; i < 10; i++) {
			Decision.Rejected busy = Decisions.rejected(limiter.decide(TestRequest.from("203.0.113.4"), request));
			assertThat(busy.binding().dimension()).isEqualTo(Dimension.SERVICE);
		}
	}

	private Decision decide(String address, String group) {
		return this.limiter.decide(TestRequest.from(address), Classification.of(group, 1));
	}

}
