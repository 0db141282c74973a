package io.github.ratelimit.control;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.github.ratelimit.identity.Identity;
import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.policy.PolicyRegistry;
import io.github.ratelimit.policy.PolicyTable;
import io.github.ratelimit.storage.memory.InMemoryControlStore;
import io.github.ratelimit.test.ManualTimeMeter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Runtime control over one shared store, as two instances see it: overrides, rules and
 * bans written on one instance apply on the other once it refreshes, and end with their
 * expiry on the injected clock.
 */
class RuntimeControlTests {

	private final ManualTimeMeter clock = new ManualTimeMeter(Instant.parse("2026-03-01T10:00:00Z"));

	private final InMemoryControlStore store = new InMemoryControlStore(this.clock);

	private final PolicyTable table = PolicyTable.build(
			Map.of("free", Map.of("org", Map.of("default", "100/1m"), "user", Map.of("default", "10/1m")), "premium",
					Map.of("org", Map.of("default", "1000/1m", "export", "50/1m"))),
			Map.of("default", "5000/1m"), Set.of("export"));

	private final BanRules bans = new BanRules(new BanRules.Settings(3, Duration.ofMinutes(1), Duration.ofHours(1),
			Duration.ofHours(3), Duration.ofDays(1)), Map.of(), Map.of());

	private final RuntimeControl a = control();

	private final RuntimeControl b = control();

	private RuntimeControl control() {
		return new RuntimeControl(this.store, new PolicyRegistry(this.table), List.of(), this.bans, this.clock,
				Duration.ofSeconds(1));
	}

	private static Identity acmeUser(String tier) {
		return new Identity("alice", "acme", null, "203.0.113.9", tier, true);
	}

	private static String limitOf(List<Policy> policies, Dimension dimension) {
		return policies.stream()
			.filter((policy) -> policy.dimension() == dimension && !policy.isBackstop())
			.map((policy) -> policy.name() + "=" + policy.limit().spec())
			.findFirst()
			.orElse("none");
	}

	@Test
	void anOverrideSetOnOneInstanceAppliesOnTheOtherAfterItsRefreshAndEndsWithItsExpiry() {
		this.a.setOverride(Dimension.ORG, "acme", "default", "500/1m", this.clock.instant().plusSeconds(3600));
		assertThat(limitOf(this.a.policies(acmeUser("free"), "default"), Dimension.ORG))
			.isEqualTo("override-org-default=500/1m");
		assertThat(limitOf(this.b.policies(acmeUser("free"), "default"), Dimension.ORG))
			.isEqualTo("free-org-default=100/1m");
		this.b.refresh();
		assertThat(limitOf(this.b.policies(acmeUser("free"), "default"), Dimension.ORG))
			.isEqualTo("override-org-default=500/1m");
		// the user's own limit and the backstop stay
		assertThat(limitOf(this.b.policies(acmeUser("free"), "default"), Dimension.USER))
			.isEqualTo("free-user-default=10/1m");
		assertThat(this.b.policies(acmeUser("free"), "default")).anyMatch(Policy::isBackstop);
		// another org keeps its tier's limit
		Identity other = new Identity("bob", "globex", null, "203.0.113.10", "free", true);
		assertThat(limitOf(this.b.policies(other, "default"), Dimension.ORG)).isEqualTo("free-org-default=100/1m");
		this.clock.advance(Duration.ofSeconds(3600));
		assertThat(limitOf(this.b.policies(acmeUser("free"), "default"), Dimension.ORG))
			.isEqualTo("free-org-default=100/1m");
		assertThat(this.b.overrides()).isEmpty();
	}

	@Test
	void anOverrideSurvivesAPlanChangeAndItsGroupsMeanWhatTheyMeanInATier() {
		this.a.setOverride(Dimension.ORG, "acme", "default", "500/1m", null);
		this.a.setOverride(Dimension.ORG, "acme", "export", "5/1m", null);
		// free gives export no limit of its own: its export requests count against
		// default
		assertThat(limitOf(this.a.policies(acmeUser("free"), "export"), Dimension.ORG))
			.isEqualTo("override-org-export=5/1m");
		// the customer moved to premium: the overrides still apply
		assertThat(limitOf(this.a.policies(acmeUser("premium"), "default"), Dimension.ORG))
			.isEqualTo("override-org-default=500/1m");
		assertThat(limitOf(this.a.policies(acmeUser("premium"), "export"), Dimension.ORG))
			.isEqualTo("override-org-export=5/1m");
		assertThat(this.a.deleteOverride(Dimension.ORG, "acme", "export")).isTrue();
		// premium gives export a limit of its own: an override of default leaves it, as
		// default does in a tier
		assertThat(limitOf(this.a.policies(acmeUser("premium"), "export"), Dimension.ORG))
			.isEqualTo("premium-org-export=50/1m");
		assertThat(limitOf(this.a.policies(acmeUser("free"), "export"), Dimension.ORG))
			.isEqualTo("override-org-default=500/1m");
	}

	@Test
	void aBadOverrideIsRefusedWithTheReasonOfTheStartupCheck() {
		assertThatExceptionOfType(InvalidControlInputException.class)
			.isThrownBy(() -> this.a.setOverride(Dimension.ORG, "acme", "default", "lots/1m", null))
			.satisfies((ex) -> {
				assertThat(ex.getMessage()).isEqualTo("Invalid value 'lots/1m' for 'limit': " + ex.getReason()
						+ " (for example: " + ex.getExample() + ")");
				assertThat(ex.getField()).isEqualTo("limit");
				assertThat(ex.getExample()).isNotBlank();
			});
		assertThat(this.a.overrides()).isEmpty();
	}

	@Test
	void anOverrideOrRuleThatCouldNotApplyIsRefusedBeforeAnythingIsWrittenAndTheLiveOneStays() {
		Instant inAnHour = this.clock.instant().plusSeconds(3600);
		this.a.setOverride(Dimension.ORG, "acme", "default", "500/1m", inAnHour);
		long version = this.store.version();
		assertThatExceptionOfType(InvalidControlInputException.class)
			.isThrownBy(() -> this.a.setOverride(Dimension.ORG, "acme", "default", "1/1m",
					this.clock.instant().minusSeconds(1)))
			.satisfies((ex) -> assertThat(ex.getField()).isEqualTo("expires"))
			.withMessageContaining("must lie in the future");
		assertThatExceptionOfType(InvalidControlInputException.class)
			.isThrownBy(() -> this.a.setOverride(Dimension.ORG, "acme", "default", "1/1m",
					Instant.parse("+1000000000-12-31T23:59:59Z")))
			.withMessageContaining("at most 3650 days ahead");
		assertThatExceptionOfType(InvalidControlInputException.class)
			.isThrownBy(() -> this.a.setOverride(Dimension.ORG, "acme", "reports", "1/1m", null))
			.satisfies((ex) -> assertThat(ex.getField()).isEqualTo("group"))
			.withMessageContaining("unknown endpoint group");
		assertThatExceptionOfType(InvalidControlInputException.class)
			.isThrownBy(() -> this.a.setOverride(Dimension.USER, "al\u0000ice", "default", "1/1m", null))
			.satisfies((ex) -> assertThat(ex.getField()).isEqualTo("id"));
		assertThatExceptionOfType(InvalidControlInputException.class)
			.isThrownBy(() -> this.a.setRule(new AccessRule(AccessRule.Access.DENY, Subject.parse("user:acme-bot"),
					null, Instant.parse("+1000000000-12-31T23:59:59Z"))))
			.satisfies((ex) -> assertThat(ex.getField()).isEqualTo("expires"));
		assertThat(this.store.version()).as("nothing written").isEqualTo(version);
		assertThat(this.a.overrides()).singleElement()
			.isEqualTo(new LimitOverride(Dimension.ORG, "acme", "default", "500/1m", inAnHour));
		assertThat(limitOf(this.a.policies(acmeUser("free"), "default"), Dimension.ORG))
			.isEqualTo("override-org-default=500/1m");
		assertThat(this.a.rules()).isEmpty();
	}

	@Test
	void aStoredRecordThatCannotApplyIsSkippedAndLaterChangesStillApply() {
		// as a store holds them when they were written before expiries were checked, or
		// by hand
		Instant farOut = Instant.parse("+1000000000-12-31T23:59:59Z");
		this.store.putOverride(new LimitOverride(Dimension.ORG, "acme", "default", "1/1m", farOut));
		this.store.putOverride(new LimitOverride(Dimension.ORG, "globex", "default", "lots/1m", null));
		this.store.putRule(new AccessRule(AccessRule.Access.DENY, Subject.parse("user:mallory"), null, farOut));
		this.a.refresh();
		this.a.setOverride(Dimension.USER, "alice", "default", "70/1m", this.clock.instant().plusSeconds(60));
		this.a.setRule(new AccessRule(AccessRule.Access.DENY, Subject.parse("203.0.113.0/24"), null, null));
		this.b.refresh();
		for (RuntimeControl control : List.of(this.a, this.b)) {
			assertThat(limitOf(control.policies(acmeUser("free"), "default"), Dimension.USER))
				.isEqualTo("override-user-default=70/1m");
			assertThat(control.access(acmeUser("free"), "203.0.113.9").denied()).isTrue();
			// the one far out lasts (for ever, as far as milliseconds go); the one the
			// parser refuses is skipped
			assertThat(limitOf(control.policies(acmeUser("free"), "default"), Dimension.ORG))
				.isEqualTo("override-org-default=1/1m");
			Identity mallory = new Identity("mallory", null, null, "198.51.100.1", "free", true);
			assertThat(control.access(mallory, "198.51.100.1").denied()).isTrue();
		}
		assertThat(this.b.overrides()).extracting(LimitOverride::id).contains("alice", "acme");
	}

	@Test
	void aCallerRefusedOftenEnoughIsBannedOnEveryInstanceAndARepeatOffenderTwiceAsLong() {
		Identity mallory = Identity.anonymous("198.51.100.66", "free");
		this.a.refused(mallory, "free", "default");
		this.b.refused(mallory, "free", "default");
		assertThat(this.a.ban(mallory)).isNull();
		this.a.refused(mallory, "free", "default");
		Ban first = this.a.ban(mallory);
		assertThat(first).isNotNull();
		assertThat(first.subject()).isEqualTo("ip:198.51.100.66");
		assertThat(first.until()).isEqualTo(this.clock.instant().plus(Duration.ofHours(1)));
		assertThat(this.b.ban(mallory)).as("before b refreshes").isNull();
		this.b.refresh();
		assertThat(this.b.ban(mallory)).isEqualTo(first);
		// over: the next ban of the same caller lasts twice as long, then four times,
		// capped at 3 h
		this.clock.advance(Duration.ofHours(1));
		assertThat(this.a.ban(mallory)).isNull();
		for (int i = 0; i < 3; i++) {
			this.b.refused(mallory, "free", "default");
		}
		assertThat(this.b.ban(mallory).until()).isEqualTo(this.clock.instant().plus(Duration.ofHours(2)));
		assertThat(this.b.ban(mallory).offence()).isEqualTo(2);
		// lifted at once where it is lifted, and on the other instance with its refresh;
		// the record stays
		assertThat(this.a.liftBan(Subject.of(Dimension.IP, "198.51.100.66"))).isTrue();
		assertThat(this.a.ban(mallory)).isNull();
		this.b.refresh();
		assertThat(this.b.ban(mallory)).isNull();
		for (int i = 0; i < 3; i++) {
			this.a.refused(mallory, "free", "default");
		}
		assertThat(this.a.ban(mallory).until()).isEqualTo(this.clock.instant().plus(Duration.ofHours(3)));
		assertThat(this.a.bansStarted()).isEqualTo(2);
	}

	@Test
	void refusalsOutsideTheWindowDoNotAddUp() {
		Identity slow = Identity.anonymous("198.51.100.67", "free");
		for (int i = 0; i < 10; i++) {
			this.a.refused(slow, "free", "default");
			this.a.refused(slow, "free", "default");
			this.clock.advance(Duration.ofSeconds(61));
		}
		assertThat(this.a.ban(slow)).isNull();
	}

	@Test
	void aVerifiedCallerIsBannedByUserOrKeyNotByAddress() {
		assertThat(Subject.banKey(acmeUser("free"))).isEqualTo("user:alice");
		assertThat(Subject.banKey(new Identity(null, "acme", "t-0123", "203.0.113.9", "free", true)))
			.isEqualTo("key:t-0123");
	}

	@Test
	void bansAreOffUnlessATierOrGroupSetsRefusals() {
		RuntimeControl control = new RuntimeControl(this.store, new PolicyRegistry(this.table), List.of(),
				BanRules.NONE, this.clock, Duration.ofSeconds(1));
		Identity caller = Identity.anonymous("198.51.100.68", "free");
		for (int i = 0; i < 1000; i++) {
			control.refused(caller, "free", "default");
		}
		assertThat(control.ban(caller)).isNull();
		BanRules perGroup = new BanRules(BanRules.Settings.UNSET, Map.of(),
				Map.of("export", new BanRules.Settings(2, null, Duration.ofMinutes(5), null, null)));
		assertThat(perGroup.ruleFor("free", "default")).isNull();
		BanRule rule = perGroup.ruleFor("free", "export");
		assertThat(rule.refusals()).isEqualTo(2);
		assertThat(rule.duration()).isEqualTo(Duration.ofMinutes(5));
		assertThat(rule.window()).isEqualTo(BanRules.Settings.DEFAULT_WINDOW);
	}

	@Test
	void accessRulesSetAtRuntimeApplyOnEveryInstanceUntilTheyExpire() {
		this.a.setRule(new AccessRule(AccessRule.Access.DENY, Subject.parse("203.0.113.0/24"), null,
				this.clock.instant().plusSeconds(60)));
		this.b.refresh();
		assertThat(this.b.access(acmeUser("free"), "203.0.113.9").denied()).isTrue();
		assertThat(this.b.access(acmeUser("free"), "198.51.100.1").denied()).isFalse();
		this.clock.advance(Duration.ofSeconds(60));
		assertThat(this.b.access(acmeUser("free"), "203.0.113.9").denied()).isFalse();
		assertThatExceptionOfType(InvalidControlInputException.class)
			.isThrownBy(() -> this.a.setRule(AccessRule.parse(AccessRule.Access.ALLOW, "user:bot as gold")))
			.satisfies((ex) -> assertThat(ex.getField()).isEqualTo("tier"))
			.satisfies((ex) -> assertThat(ex.getReason()).contains("unknown tier"));
	}

	@Test
	void aReplacedTableAppliesFromTheNextLookupWithOverridesCompiledAgainstIt() {
		this.a.setOverride(Dimension.ORG, "acme", "export", "7/1m", null);
		PolicyTable withoutExport = PolicyTable.build(Map.of("free", Map.of("org", Map.of("default", "200/1m"))),
				Map.of(), Set.of());
		this.a.registry().replace(withoutExport);
		// the group is gone: its override no longer applies, the new table's limit does
		assertThat(limitOf(this.a.policies(acmeUser("free"), "default"), Dimension.ORG))
			.isEqualTo("free-org-default=200/1m");
	}

}
