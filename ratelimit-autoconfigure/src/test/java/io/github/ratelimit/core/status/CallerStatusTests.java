package io.github.ratelimit.core.status;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.github.ratelimit.control.AccessRule;
import io.github.ratelimit.control.BanRule;
import io.github.ratelimit.control.BanRules;
import io.github.ratelimit.control.RuntimeControl;
import io.github.ratelimit.core.BucketReader;
import io.github.ratelimit.core.Decision;
import io.github.ratelimit.identity.ClientIpResolver;
import io.github.ratelimit.identity.Identifier;
import io.github.ratelimit.identity.IdentityResolver;
import io.github.ratelimit.identity.ResolvedIdentity;
import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.Mode;
import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.policy.PolicyOptions;
import io.github.ratelimit.policy.PolicyRegistry;
import io.github.ratelimit.policy.PolicyTable;
import io.github.ratelimit.storage.CheckResult;
import io.github.ratelimit.storage.LimitCheck;
import io.github.ratelimit.storage.RateLimitStore;
import io.github.ratelimit.storage.StoreDecision;
import io.github.ratelimit.storage.StoreKeys;
import io.github.ratelimit.storage.StoreUnavailableException;
import io.github.ratelimit.storage.memory.InMemoryControlStore;
import io.github.ratelimit.storage.memory.InMemoryRateLimitStore;
import io.github.ratelimit.test.ManualTimeMeter;
import io.github.ratelimit.test.TestRequest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * A caller's standing as the status answers it: identified as the limiter identifies it,
 * its overrides in place of its tier's limits, policies in observe mode left out, read
 * without taking a token; a deny rule, a ban or a store that cannot be read answered as
 * refusals.
 */
class CallerStatusTests {

	private static final Instant NOW = Instant.parse("2026-03-10T10:00:00Z");

	private final ManualTimeMeter clock = new ManualTimeMeter(NOW);

	private final PolicyTable table = PolicyTable.build(
			Map.of("anonymous", Map.of("ip", Map.of("default", "10/1m", "admin", "0")), "premium",
					Map.of("user", Map.of("default", "100/1m", "export", "20/1m", "search", "50/1m"), "org",
							Map.of("all", "1000/month"))),
			Map.of("default", "5000/1m"), Set.of("admin", "export", "search"),
			new PolicyOptions(ZoneOffset.UTC, Mode.ENFORCE, 0, Map.of(),
					Map.of("search",
							new PolicyOptions.GroupOptions(new PolicyOptions.Tuning(Mode.OBSERVE, null), 0,
									Duration.ZERO),
							"export",
							new PolicyOptions.GroupOptions(new PolicyOptions.Tuning(null, null), 2, Duration.ZERO))));

	private final RuntimeControl control = new RuntimeControl(new InMemoryControlStore(this.clock),
			new PolicyRegistry(this.table),
			List.of(AccessRule.parse(AccessRule.Access.DENY, "user:mallory"),
					AccessRule.parse(AccessRule.Access.ALLOW, "user:bot")),
			BanRules.NONE, this.clock, Duration.ofSeconds(1));

	private final InMemoryRateLimitStore store = new InMemoryRateLimitStore(1000, this.clock, this.clock);

	private final StoreKeys keys = new StoreKeys(StoreKeys.DEFAULT_PREFIX);

	// the principal of a test request is its user, in the org acme and the premium tier
	private final IdentityResolver users = (request) -> (request.principal() instanceof String user)
			? new ResolvedIdentity(user, "acme", "premium", null) : null;

	private final Identifier identifier = new Identifier(List.of(this.users),
			new ClientIpResolver(List.of("127.0.0.1/32"), 32, 64), Set.of("anonymous", "premium"), "anonymous",
			"premium");

	private final CallerStatus status = statusOf(this.store);

	@Test
	void anAnonymousCallerSeesItsAddressBudgetsAfterItsRequests() {
		spend(this.table.policies("anonymous", "default").get(0), "203.0.113.7", 3);
		CallerStanding standing = known(this.status.status(TestRequest.from("203.0.113.7")));
		assertThat(standing.identity().ip()).isEqualTo("203.0.113.7");
		assertThat(standing.identity().tier()).isEqualTo("anonymous");
		assertThat(standing.readAt()).isEqualTo(NOW);
		GroupStanding group = standing.groups().get("default");
		assertThat(group.blocked()).isFalse();
		assertThat(group.cost()).isEqualTo(1);
		assertThat(group.budgets()).extracting(Budget::name, Budget::remaining)
			.containsExactly(tuple("anonymous-ip-default", 7L), tuple("backstop-ip-default", 5000L));
		Budget rate = group.budgets().get(0);
		assertThat(rate.kind()).isEqualTo(Budget.Kind.RATE);
		assertThat(rate.scope()).isEqualTo(Dimension.IP);
		assertThat(rate.limit()).isEqualTo("10/1m");
		// three tokens refill in 18 s
		assertThat(rate.resetSeconds()).isEqualTo(18);
		assertThat(rate.resetAt(NOW)).isEqualTo(NOW.plusSeconds(18));
		assertThat(standing.groups().get("admin").blocked()).isTrue();
		assertThat(standing.groups().get("admin").budgets()).isEmpty();
	}

	@Test
	void askingTakesNothing() {
		for (int i = 0; i < 100; i++) {
			this.status.status(TestRequest.from("203.0.113.8"));
		}
		assertThat(known(this.status.status(TestRequest.from("203.0.113.8"))).groups().get("default").budgets())
			.extracting(Budget::remaining)
			.containsExactly(10L, 5000L);
	}

	@Test
	void aUserSeesItsQuotaPeriodConcurrencyCapAndOverridesButNoObservedPolicy() {
		this.control.setOverride(Dimension.USER, "alice", "default", "200/1m", null);
		spend(this.table.policies("premium", "default").get(0), "acme", 5);
		CallerStanding standing = known(this.status.status(TestRequest.from("203.0.113.9").principal("alice")));
		assertThat(standing.identity().user()).isEqualTo("alice");
		assertThat(standing.groups().get("default").budgets()).extracting(Budget::name)
			.containsExactlyInAnyOrder("premium-org-all", "override-user-default", "backstop-ip-default");
		Budget quota = standing.groups().get("default").budgets().get(0);
		assertThat(quota.kind()).isEqualTo(Budget.Kind.QUOTA);
		assertThat(quota.remaining()).isEqualTo(995);
		assertThat(quota.period().start()).isEqualTo(Instant.parse("2026-03-01T00:00:00Z").toEpochMilli());
		assertThat(quota.period().end()).isEqualTo(Instant.parse("2026-04-01T00:00:00Z").toEpochMilli());
		assertThat(quota.resetAt(NOW)).isEqualTo(Instant.parse("2026-04-01T00:00:00Z"));
		assertThat(standing.groups().get("default").budgets()).filteredOn((budget) -> budget.scope() == Dimension.USER)
			.extracting(Budget::limit)
			.containsExactly("200/1m");
		Budget concurrency = standing.groups()
			.get("export")
			.budgets()
			.stream()
			.filter((budget) -> budget.name().equals("group-user-export"))
			.findFirst()
			.orElseThrow();
		assertThat(concurrency.kind()).isEqualTo(Budget.Kind.CONCURRENCY);
		assertThat(concurrency.remaining()).isEqualTo(2);
		assertThat(concurrency.inUse()).isZero();
		// search is observed: what it inherits observes too, only the tier-wide quota
		// (a limit of its own) refuses there
		assertThat(standing.groups().get("search").budgets()).extracting(Budget::name)
			.containsExactly("premium-org-all");
	}

	@Test
	void aDeniedCallerGetsTheDenialAndAnAllowListedOneNoLimit() {
		assertThat(this.status.status(TestRequest.from("203.0.113.10").principal("mallory"))).isInstanceOfSatisfying(
				StatusAnswer.Refused.class,
				(refused) -> assertThat(refused.refusal()).isInstanceOf(Decision.Denied.class));
		CallerStanding bot = known(this.status.status(TestRequest.from("203.0.113.10").principal("bot")));
		assertThat(bot.groups().values()).allSatisfy((group) -> assertThat(group.budgets()).isEmpty());
	}

	@Test
	void aBannedCallerGetsTheBan() {
		BanRule rule = new BanRule(1, Duration.ofMinutes(1), Duration.ofHours(1), Duration.ofHours(1),
				Duration.ofDays(1));
		this.control.refused(this.identifier.identify(TestRequest.from("203.0.113.11")), rule);
		assertThat(this.status.status(TestRequest.from("203.0.113.11"))).isInstanceOfSatisfying(
				StatusAnswer.Refused.class,
				(refused) -> assertThat(refused.refusal()).isInstanceOfSatisfying(Decision.Banned.class,
						(banned) -> assertThat(banned.retryAfterSeconds()).isEqualTo(3600)));
	}

	@Test
	void aStoreThatCannotBeReadAnswersUnavailable() {
		RateLimitStore down = new RateLimitStore() {

			@Override
			public StoreDecision decide(List<LimitCheck> checks) {
				throw new StoreUnavailableException("down");
			}

			@Override
			public boolean canInspect() {
				return true;
			}

			@Override
			public List<CheckResult> inspect(List<LimitCheck> checks) {
				throw new StoreUnavailableException("down");
			}

		};
		assertThat(statusOf(down).status(TestRequest.from("203.0.113.12"))).isInstanceOfSatisfying(
				StatusAnswer.Refused.class,
				(refused) -> assertThat(refused.refusal()).isInstanceOf(Decision.Unavailable.class));
	}

	private CallerStatus statusOf(RateLimitStore store) {
		return new CallerStatus(this.identifier, this.control, store, new BucketReader(store, this.keys),
				(group) -> "export".equals(group) ? 2 : 1, Clock.fixed(NOW, ZoneOffset.UTC));
	}

	private void spend(Policy policy, String id, long cost) {
		this.store.decide(List.of(LimitCheck.enforced(policy, this.keys.key(policy, id), cost)));
	}

	private static CallerStanding known(StatusAnswer answer) {
		assertThat(answer).isInstanceOf(StatusAnswer.Known.class);
		return ((StatusAnswer.Known) answer).standing();
	}

}
