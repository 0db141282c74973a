package io.github.ratelimit.core;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.github.ratelimit.control.BanRules;
import io.github.ratelimit.control.RuntimeControl;
import io.github.ratelimit.control.Subject;
import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.PolicyRegistry;
import io.github.ratelimit.policy.PolicyTable;
import io.github.ratelimit.storage.LimitCheck;
import io.github.ratelimit.storage.StoreKeys;
import io.github.ratelimit.storage.memory.InMemoryControlStore;
import io.github.ratelimit.storage.memory.InMemoryRateLimitStore;
import io.github.ratelimit.test.ManualTimeMeter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.tuple;

/**
 * What the {@code ratelimits} endpoint shows of one subject: every bucket of its
 * dimension whatever tier it calls in, with its overrides' limits, read without taking a
 * token and reset to full.
 */
class SubjectBucketsTests {

	private final ManualTimeMeter clock = new ManualTimeMeter(Instant.parse("2026-03-01T10:00:00Z"));

	private final PolicyTable table = PolicyTable.build(
			Map.of("free", Map.of("org", Map.of("default", "100/1m"), "user", Map.of("default", "10/1m")), "premium",
					Map.of("org", Map.of("default", "1000/1m", "export", "50/1m"))),
			Map.of("default", "5000/1m"), Set.of("export"));

	private final RuntimeControl control = new RuntimeControl(new InMemoryControlStore(this.clock),
			new PolicyRegistry(this.table), List.of(), BanRules.NONE, this.clock, Duration.ofSeconds(1));

	private final InMemoryRateLimitStore store = new InMemoryRateLimitStore(1000, this.clock, this.clock);

	private final SubjectBuckets buckets = new SubjectBuckets(this.control, this.store,
			new StoreKeys(StoreKeys.DEFAULT_PREFIX));

	@Test
	void anOrgHasABucketForEveryLimitOfItsDimensionAndNoOther() {
		// the tiers' default limits count in one bucket per group: it is read once
		// (whichever tier the table lists first)
		List<BucketState> buckets = this.buckets.read(Subject.of(Dimension.ORG, "acme"));
		assertThat(buckets).extracting(BucketState::policy)
			.containsExactlyInAnyOrder("premium-org-export",
					buckets.stream()
						.map(BucketState::policy)
						.filter((name) -> name.endsWith("-org-default"))
						.findFirst()
						.orElse("no default"));
		assertThat(buckets).extracting(BucketState::policy, BucketState::limit, BucketState::remaining)
			.contains(tuple("premium-org-export", "50/1m", 50L));
	}

	@Test
	void readingTakesNothingAndShowsWhatRequestsSpent() {
		Subject alice = Subject.of(Dimension.USER, "alice");
		List<LimitCheck> checks = this.buckets.checks(alice);
		assertThat(checks).hasSize(1);
		this.store.decide(List.of(LimitCheck.enforced(checks.get(0).policy(), checks.get(0).key(), 3)));
		assertThat(this.buckets.read(alice)).singleElement().satisfies((bucket) -> {
			assertThat(bucket.policy()).isEqualTo("free-user-default");
			assertThat(bucket.quota()).isEqualTo(10);
			assertThat(bucket.remaining()).isEqualTo(7);
			assertThat(bucket.resetSeconds()).isPositive();
		});
		assertThat(this.buckets.read(alice)).singleElement().extracting(BucketState::remaining).isEqualTo(7L);
	}

	@Test
	void anOverrideBucketIsReadWithTheOverridesLimitAndResetEmptiesEveryBucket() {
		Subject acme = Subject.of(Dimension.ORG, "acme");
		this.control.setOverride(Dimension.ORG, "acme", "export", "7/1m", null);
		List<BucketState> before = this.buckets.read(acme);
		assertThat(before.get(0).policy()).isEqualTo("override-org-export");
		assertThat(before.get(0).limit()).isEqualTo("7/1m");
		LimitCheck override = this.buckets.checks(acme).get(0);
		this.store.decide(List.of(LimitCheck.enforced(override.policy(), override.key(), 5)));
		assertThat(this.buckets.read(acme).get(0).remaining()).isEqualTo(2);
		assertThat(this.buckets.reset(acme)).isEqualTo(before.size());
		assertThat(this.buckets.read(acme).get(0).remaining()).isEqualTo(7);
	}

	@Test
	void aClientGroupHasTheBackstopBucket() {
		assertThat(this.buckets.read(Subject.of(Dimension.IP, "198.51.100.7"))).extracting(BucketState::policy)
			.containsExactly("backstop-ip-default");
	}

	@Test
	void aStoreThatCannotReadBucketsSaysSo() {
		SubjectBuckets unreadable = new SubjectBuckets(this.control, (checks) -> {
			throw new AssertionError("not decided");
		}, new StoreKeys(StoreKeys.DEFAULT_PREFIX));
		assertThatExceptionOfType(UnsupportedOperationException.class)
			.isThrownBy(() -> unreadable.read(Subject.of(Dimension.USER, "alice")))
			.withMessageContaining("cannot read buckets");
	}

}
