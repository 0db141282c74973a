package io.github.ratelimit.core;

import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.github.ratelimit.control.BanRules;
import io.github.ratelimit.control.RuntimeControl;
import io.github.ratelimit.control.Subject;
import io.github.ratelimit.identity.ClientIpResolver;
import io.github.ratelimit.identity.Identifier;
import io.github.ratelimit.policy.Classification;
import io.github.ratelimit.policy.CountedResponses;
import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.Mode;
import io.github.ratelimit.policy.PolicyOptions;
import io.github.ratelimit.policy.PolicyOptions.GroupOptions;
import io.github.ratelimit.policy.PolicyOptions.Tuning;
import io.github.ratelimit.policy.PolicyRegistry;
import io.github.ratelimit.policy.PolicyTable;
import io.github.ratelimit.storage.StoreKeys;
import io.github.ratelimit.storage.memory.InMemoryControlStore;
import io.github.ratelimit.storage.memory.InMemoryRateLimitStore;
import io.github.ratelimit.test.ManualTimeMeter;
import io.github.ratelimit.test.TestRequest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Refusals a remote store gave are answered from memory until the bucket holds the cost
 * again, and forgotten when an override, a rule or an operator's reset changes what the
 * store would say; limits that anything but time may refill are always asked.
 */
class RateLimiterLocalRefusalsTests {

	private static final String CLIENT = "203.0.113.5";

	private final ManualTimeMeter time = new ManualTimeMeter(Instant.parse("2026-03-01T10:00:00Z"));

	private final CountingRemoteStore store = new CountingRemoteStore(
			new InMemoryRateLimitStore(10_000, this.time, this.time));

	// default: 5 an hour (one token every 12 minutes); waiting: may wait 10 minutes;
	// counted: counts failures only; capped: at most one request at a time
	private final PolicyTable table = PolicyTable.build(
			Map.of("anonymous",
					Map.of("ip", Map.of("default", "5/1h", "waiting", "5/1h", "counted", "5/1h", "capped", "100/1h"))),
			Map.of(), Set.of("waiting", "counted", "capped"),
			new PolicyOptions(ZoneOffset.UTC, Mode.ENFORCE, 0, Map.of(), Map.of("waiting",
					new GroupOptions(new Tuning(null, null), 0, Duration.ofMinutes(10), CountedResponses.ALL),
					"counted", new GroupOptions(new Tuning(null, null), 0, Duration.ZERO, CountedResponses.FAILURES),
					"capped", new GroupOptions(new Tuning(null, null), 1, Duration.ZERO, CountedResponses.ALL))));

	private final RuntimeControl control = new RuntimeControl(new InMemoryControlStore(this.time),
			new PolicyRegistry(this.table), List.of(), BanRules.NONE, this.time, Duration.ofSeconds(1));

	private final StoreKeys keys = new StoreKeys(StoreKeys.DEFAULT_PREFIX);

	private final RateLimiter limiter = RateLimiter
		.builder(new Identifier(List.of(), new ClientIpResolver(List.of(), 32, 64), this.table.tiers(), "anonymous",
				"authenticated"), this.store)
		.control(this.control)
		.storeKeys(this.keys)
		.clock(this.time)
		.build();

	private Decision request(String group) {
		return this.limiter.decide(TestRequest.from(CLIENT), Classification.of(group, 1));
	}

	private Decision request(String group, long cost) {
		return this.limiter.decide(TestRequest.from(CLIENT), Classification.of(group, cost));
	}

	private Decision.Rejected spend(String group) {
		for (int i = 0; i < 5; i++) {
			assertThat(request(group).outcome()).isEqualTo(Outcome.ALLOWED);
		}
		return Decisions.rejected(request(group));
	}

	@Test
	void refusalsAfterTheStoresFirstAreLocalUntilTheBucketRefills() {
		Decision.Rejected first = spend("default");
		assertThat(first.retryAfterSeconds()).isEqualTo(720);
		assertThat(this.store.calls).isEqualTo(6);
		this.time.advance(Duration.ofMinutes(2));
		Decision.Rejected local = Decisions.rejected(request("default"));
		assertThat(this.store.calls).isEqualTo(6);
		assertThat(local.retryAfterSeconds()).isEqualTo(600);
		assertThat(local.limits().binding().remaining()).isZero();
		assertThat(local.limits().binding().name()).isEqualTo(first.limits().binding().name());
		assertThat(local.limits().binding().violated()).isTrue();
		assertThat(first.remembered()).as("the store's own refusal").isFalse();
		assertThat(local.remembered()).as("answered from memory").isTrue();
		for (int i = 0; i < 100; i++) {
			request("default");
		}
		assertThat(this.store.calls).isEqualTo(6);
		assertThat(this.limiter.localRefusals().refused()).isEqualTo(101);
		this.time.advance(Duration.ofMinutes(10));
		// the bucket holds a token again: the store is asked, and admits
		assertThat(request("default").outcome()).isEqualTo(Outcome.ALLOWED);
		assertThat(this.store.calls).isEqualTo(7);
	}

	@Test
	void theCostRefusedAndLargerOnesAreRefusedLocallyAndASmallerOneAsksTheStore() {
		assertThat(request("default", 1).outcome()).isEqualTo(Outcome.ALLOWED);
		// 4 left: a cost of 5 is short for 12 minutes
		assertThat(Decisions.rejected(request("default", 5)).retryAfterSeconds()).isEqualTo(720);
		assertThat(this.store.calls).isEqualTo(2);
		assertThat(Decisions.rejected(request("default", 5)).retryAfterSeconds()).isEqualTo(720);
		assertThat(this.store.calls).isEqualTo(2);
		// a smaller cost may pass sooner: asked, and admitted
		assertThat(request("default", 4).outcome()).isEqualTo(Outcome.ALLOWED);
		assertThat(this.store.calls).isEqualTo(3);
	}

	@Test
	void anOverrideThatRaisesTheLimitDropsTheRefusal() {
		spend("default");
		this.time.advance(Duration.ofMinutes(1));
		int calls = this.store.calls;
		assertThat(request("default").outcome()).isEqualTo(Outcome.REJECTED);
		assertThat(this.store.calls).isEqualTo(calls);
		// the bucket keeps its 0 tokens and refills at the new rate: the store is asked
		// again, and its answer comes 11 minutes before the remembered refusal's end
		this.control.setOverride(Dimension.IP, CLIENT, "default", "100/1h", null);
		Decision.Rejected raised = Decisions.rejected(request("default"));
		assertThat(this.store.calls).isEqualTo(calls + 1);
		assertThat(raised.limits().binding().name()).isEqualTo("override-ip-default");
		assertThat(raised.retryAfterSeconds()).isEqualTo(36);
		this.time.advance(Duration.ofSeconds(36));
		assertThat(request("default").outcome()).isEqualTo(Outcome.ALLOWED);
		assertThat(this.store.calls).isEqualTo(calls + 2);
	}

	@Test
	void aNewPolicyTableDropsTheRefusal() {
		spend("default");
		int calls = this.store.calls;
		this.control.registry()
			.replace(PolicyTable.build(Map.of("anonymous", Map.of("ip", Map.of("default", "100/1h"))), Map.of(),
					Set.of()));
		Decision.Rejected refused = Decisions.rejected(request("default"));
		assertThat(this.store.calls).isEqualTo(calls + 1);
		assertThat(refused.limits().binding().limit()).isEqualTo(100);
	}

	@Test
	void aResetOfTheSubjectsBucketsDropsTheRefusal() {
		spend("default");
		assertThat(request("default").outcome()).isEqualTo(Outcome.REJECTED);
		int calls = this.store.calls;
		new SubjectBuckets(this.control, this.store, this.keys, this.limiter::forgetLocally)
			.reset(Subject.of(Dimension.IP, CLIENT));
		assertThat(request("default").outcome()).isEqualTo(Outcome.ALLOWED);
		assertThat(this.store.calls).isEqualTo(calls + 1);
	}

	@Test
	void aGroupWhoseRequestsMayWaitIsAlwaysAsked() {
		for (int i = 0; i < 5; i++) {
			request("waiting");
		}
		// the sixth waits 12 minutes, longer than it may: refused, by the store each time
		assertThat(request("waiting").outcome()).isEqualTo(Outcome.REJECTED);
		assertThat(request("waiting").outcome()).isEqualTo(Outcome.REJECTED);
		assertThat(this.store.calls).isEqualTo(7);
		assertThat(this.limiter.localRefusals().size()).isZero();
	}

	@Test
	void aLimitCountingByOutcomeIsAlwaysAsked() {
		for (int i = 0; i < 5; i++) {
			Decisions.allowed(request("counted")).completion().responseDone(500);
		}
		assertThat(request("counted").outcome()).isEqualTo(Outcome.REJECTED);
		assertThat(request("counted").outcome()).isEqualTo(Outcome.REJECTED);
		assertThat(this.store.calls).isEqualTo(7);
		assertThat(this.limiter.localRefusals().size()).isZero();
	}

	@Test
	void aConcurrencyCapIsAlwaysAsked() {
		Decision.Allowed holding = Decisions.allowed(request("capped"));
		assertThat(request("capped").outcome()).isEqualTo(Outcome.REJECTED);
		assertThat(request("capped").outcome()).isEqualTo(Outcome.REJECTED);
		assertThat(this.store.calls).isEqualTo(3);
		assertThat(this.limiter.localRefusals().size()).isZero();
		// a released permit frees one at once
		holding.completion().responseDone(200);
		assertThat(request("capped").outcome()).isEqualTo(Outcome.ALLOWED);
	}

	@Test
	void aStoreInMemoryIsAlwaysAsked() {
		RateLimiter inMemory = RateLimiter
			.builder(new Identifier(List.of(), new ClientIpResolver(List.of(), 32, 64), this.table.tiers(), "anonymous",
					"authenticated"), new InMemoryRateLimitStore(10_000, this.time, this.time))
			.policies(this.table)
			.clock(this.time)
			.build();
		assertThat(inMemory.localRefusals()).isNull();
	}

}
