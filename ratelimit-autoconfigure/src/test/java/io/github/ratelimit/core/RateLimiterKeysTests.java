package io.github.ratelimit.core;

import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import io.github.ratelimit.identity.ClientIpResolver;
import io.github.ratelimit.identity.Identifier;
import io.github.ratelimit.identity.IdentityResolver;
import io.github.ratelimit.identity.ResolvedIdentity;
import io.github.ratelimit.keys.HeaderKeyResolver;
import io.github.ratelimit.keys.PathVariableKeyResolver;
import io.github.ratelimit.policy.Classification;
import io.github.ratelimit.policy.CountedResponses;
import io.github.ratelimit.policy.InlineLimit;
import io.github.ratelimit.policy.KeyLimits;
import io.github.ratelimit.policy.Limit;
import io.github.ratelimit.policy.LimitParser;
import io.github.ratelimit.policy.Mode;
import io.github.ratelimit.policy.PolicyOptions;
import io.github.ratelimit.policy.PolicyTable;
import io.github.ratelimit.storage.memory.InMemoryRateLimitStore;
import io.github.ratelimit.test.ManualTimeMeter;
import io.github.ratelimit.test.TestRequest;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Limits counted per value of keys of the application's choosing: each value its own
 * budget, read from the request as the key says, with the group's mode; a request without
 * a value is not counted by them, and a resolver that fails never fails the request.
 */
@ExtendWith(OutputCaptureExtension.class)
class RateLimiterKeysTests {

	private final ManualTimeMeter time = new ManualTimeMeter();

	private final InMemoryRateLimitStore store = new InMemoryRateLimitStore(10_000, this.time);

	private final IdentityResolver users = (request) -> {
		String user = request.header("X-User");
		return (user != null) ? new ResolvedIdentity(user, request.header("X-Org"), "premium", null) : null;
	};

	/** anonymous: 2/1h per tenant; every tier: 3/1h per repository in the repos group. */
	private final PolicyTable table = PolicyTable.of(Map.of("anonymous", Map.of(), "premium", Map.of()), Map.of(),
			new KeyLimits(Map.of("anonymous", Map.of("tenant", Map.of("default", limit("2/1h")))),
					Map.of("repo", Map.of("repos", limit("3/1h")))),
			Set.of("repos", "trial"), new PolicyOptions(ZoneOffset.UTC, Mode.ENFORCE, 0, Map.of(), Map.of("trial",
					new PolicyOptions.GroupOptions(new PolicyOptions.Tuning(Mode.OBSERVE, null), 0, Duration.ZERO))));

	private final RequestKeys keys = new RequestKeys(Map.of("tenant", new HeaderKeyResolver("X-Tenant-Id"), "repo",
			new PathVariableKeyResolver("repo"), "broken", (request, identity) -> {
				throw new IllegalStateException("resolver bug");
			}));

	private final RateLimiter limiter = limiter(this.table, this.keys);

	private RateLimiter limiter(PolicyTable table, RequestKeys keys) {
		Identifier identifier = new Identifier(List.of(this.users), new ClientIpResolver(List.of(), 32, 64),
				table.tiers(), "anonymous", "premium");
		return RateLimiter.builder(identifier, this.store).policies(table).requestKeys(keys).build();
	}

	private static Limit limit(String spec) {
		return LimitParser.parse(spec);
	}

	@Test
	void eachValueOfAHeaderKeyHasItsOwnBudget() {
		TestRequest acme = TestRequest.from("203.0.113.7").header("X-Tenant-Id", "acme");
		Classification classification = Classification.of("default", 1);
		assertThat(this.limiter.decide(acme, classification).outcome()).isEqualTo(Outcome.ALLOWED);
		assertThat(this.limiter.decide(acme, classification).outcome()).isEqualTo(Outcome.ALLOWED);
		Decision refused = this.limiter.decide(acme, classification);
		assertThat(refused.outcome()).isEqualTo(Outcome.REJECTED);
		PolicyState binding = refused.limits().binding();
		assertThat(binding.name()).isEqualTo("anonymous-tenant-default");
		assertThat(binding.id()).isEqualTo("acme");
		assertThat(binding.policy().dimensionName()).isEqualTo("tenant");
		// the same address with another tenant, and the tenant from another address
		TestRequest globex = TestRequest.from("203.0.113.7").header("X-Tenant-Id", "globex");
		assertThat(this.limiter.decide(globex, classification).outcome()).isEqualTo(Outcome.ALLOWED);
		TestRequest acmeElsewhere = TestRequest.from("198.51.100.1").header("X-Tenant-Id", "acme");
		assertThat(this.limiter.decide(acmeElsewhere, classification).outcome()).isEqualTo(Outcome.REJECTED);
		// no tenant: the tenant's limits do not apply
		for (int i = 0; i < 5; i++) {
			assertThat(this.limiter.decide(TestRequest.from("203.0.113.7"), classification).outcome())
				.isEqualTo(Outcome.UNLIMITED);
		}
	}

	@Test
	void aPathVariableKeyReadsTheClassifyingPatternsVariable() {
		Classification app = Classification.of("repos", 1).withPathVariables(Map.of("repo", "app")::get);
		Classification lib = Classification.of("repos", 1).withPathVariables(Map.of("repo", "lib")::get);
		TestRequest alice = TestRequest.from("203.0.113.7").header("X-User", "alice");
		for (int i = 0; i < 3; i++) {
			assertThat(this.limiter.decide(alice, app).outcome()).isEqualTo(Outcome.ALLOWED);
		}
		// a limit of every tier: another caller of the same repository shares its budget
		Decision refused = this.limiter.decide(TestRequest.from("198.51.100.2"), app);
		assertThat(refused.outcome()).isEqualTo(Outcome.REJECTED);
		assertThat(refused.limits().binding().name()).isEqualTo("backstop-repo-repos");
		assertThat(this.limiter.decide(alice, lib).outcome()).isEqualTo(Outcome.ALLOWED);
	}

	@Test
	void aGroupsModeAppliesToTheKeyLimitsItsRequestsCountIn() {
		Classification trial = Classification.of("trial", 1);
		TestRequest acme = TestRequest.from("203.0.113.9").header("X-Tenant-Id", "initech");
		for (int i = 0; i < 2; i++) {
			assertThat(Decisions.allowed(this.limiter.decide(acme, trial)).observed()).isEmpty();
		}
		Decision.Allowed over = Decisions.allowed(this.limiter.decide(acme, trial));
		assertThat(over.observed()).singleElement()
			.satisfies((state) -> assertThat(state.name()).isEqualTo("anonymous-tenant-default"));
	}

	@Test
	void aHandlersLimitCountsPerTheKeyOrDimensionItNames() {
		InlineLimit perRepo = new InlineLimit("Issues.list", limit("1/1h"), CountedResponses.ALL, "repo");
		Classification app = Classification.of("default", 1)
			.withInline(perRepo)
			.withPathVariables(Map.of("repo", "app")::get);
		assertThat(this.limiter.decide(TestRequest.from("203.0.113.7"), app).outcome()).isEqualTo(Outcome.ALLOWED);
		Decision refused = this.limiter.decide(TestRequest.from("198.51.100.7"), app);
		assertThat(refused.outcome()).isEqualTo(Outcome.REJECTED);
		assertThat(refused.limits().binding().name()).isEqualTo("inline-repo-Issues.list");
		// per org: every user of the org shares it; a caller without an org is not
		// counted
		Classification perOrg = Classification.of("default", 1)
			.withInline(new InlineLimit("Reports.run", limit("1/1h"), CountedResponses.ALL, "org"));
		TestRequest alice = TestRequest.from("203.0.113.7").header("X-User", "alice").header("X-Org", "acme");
		TestRequest bob = TestRequest.from("203.0.113.8").header("X-User", "bob").header("X-Org", "acme");
		assertThat(this.limiter.decide(alice, perOrg).outcome()).isEqualTo(Outcome.ALLOWED);
		assertThat(this.limiter.decide(bob, perOrg).limits().binding().name()).isEqualTo("inline-org-Reports.run");
		assertThat(this.limiter.decide(TestRequest.from("203.0.113.9"), perOrg).outcome()).isEqualTo(Outcome.UNLIMITED);
		// per service: every caller shares one budget
		Classification perService = Classification.of("default", 1)
			.withInline(new InlineLimit("Search.reindex", limit("1/1h"), CountedResponses.ALL, "service"));
		assertThat(this.limiter.decide(TestRequest.from("203.0.113.10"), perService).outcome())
			.isEqualTo(Outcome.ALLOWED);
		Decision busy = this.limiter.decide(alice, perService);
		assertThat(busy.outcome()).isEqualTo(Outcome.REJECTED);
		assertThat(busy.limits().binding().name()).isEqualTo("inline-service-Search.reindex");
	}

	@Test
	void aFailingResolverLeavesItsLimitsOutAndSaysSoOnce(CapturedOutput output) {
		PolicyTable table = PolicyTable.of(Map.of("anonymous", Map.of()), Map.of(),
				new KeyLimits(Map.of(), Map.of("broken", Map.of("default", limit("1/1h")))), Set.of(),
				PolicyOptions.DEFAULTS);
		RateLimiter limiter = limiter(table, this.keys);
		for (int i = 0; i < 3; i++) {
			assertThat(limiter.decide(TestRequest.from("203.0.113.7"), Classification.of("default", 1)).outcome())
				.isEqualTo(Outcome.UNLIMITED);
		}
		assertThat(output).containsOnlyOnce("The resolver of key 'broken' failed");
	}

	@Test
	void aLongValueIsCountedAndNamedByItsHash() {
		String huge = "t".repeat(5000);
		TestRequest request = TestRequest.from("203.0.113.7").header("X-Tenant-Id", huge);
		Classification classification = Classification.of("default", 1);
		this.limiter.decide(request, classification);
		this.limiter.decide(request, classification);
		Decision refused = this.limiter.decide(request, classification);
		assertThat(refused.outcome()).isEqualTo(Outcome.REJECTED);
		assertThat(refused.limits().binding().id()).startsWith("#").hasSize(23);
		TestRequest other = TestRequest.from("203.0.113.7").header("X-Tenant-Id", huge + "u");
		assertThat(this.limiter.decide(other, classification).outcome()).isEqualTo(Outcome.ALLOWED);
	}

	@Test
	void aKeyWithoutAResolverAppliesToNoRequest() {
		RateLimiter limiter = limiter(this.table, RequestKeys.NONE);
		TestRequest acme = TestRequest.from("203.0.113.7").header("X-Tenant-Id", "acme");
		for (int i = 0; i < 4; i++) {
			assertThat(limiter.decide(acme, Classification.of("default", 1)).outcome()).isEqualTo(Outcome.UNLIMITED);
		}
	}

}
