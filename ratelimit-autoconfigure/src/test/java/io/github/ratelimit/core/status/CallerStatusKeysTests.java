package io.github.ratelimit.core.status;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import io.github.ratelimit.control.BanRules;
import io.github.ratelimit.control.RuntimeControl;
import io.github.ratelimit.core.BucketReader;
import io.github.ratelimit.core.RateLimiter;
import io.github.ratelimit.core.RequestKeys;
import io.github.ratelimit.http.CallerStatusBody;
import io.github.ratelimit.identity.ClientIpResolver;
import io.github.ratelimit.identity.Identifier;
import io.github.ratelimit.keys.HeaderKeyResolver;
import io.github.ratelimit.keys.PathVariableKeyResolver;
import io.github.ratelimit.policy.Classification;
import io.github.ratelimit.policy.KeyLimits;
import io.github.ratelimit.policy.LimitParser;
import io.github.ratelimit.policy.Mode;
import io.github.ratelimit.policy.PolicyOptions;
import io.github.ratelimit.policy.PolicyRegistry;
import io.github.ratelimit.policy.PolicyTable;
import io.github.ratelimit.storage.StoreKeys;
import io.github.ratelimit.storage.memory.InMemoryControlStore;
import io.github.ratelimit.storage.memory.InMemoryRateLimitStore;
import io.github.ratelimit.test.ManualTimeMeter;
import io.github.ratelimit.test.TestRequest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * Limits counted per a key of the application's in a caller's status: read from the
 * status request as the limiter reads them from any request (a header here), shown under
 * the key's name with the value the caller is counted by; a path variable has no value
 * outside its path, so its limits are left out.
 */
class CallerStatusKeysTests {

	private static final Instant NOW = Instant.parse("2026-03-10T10:00:00Z");

	private final ManualTimeMeter clock = new ManualTimeMeter(NOW);

	/** anonymous: 2/1h per tenant; every tier: 3/1h per repository in the repos group. */
	private final PolicyTable table = PolicyTable.of(Map.of("anonymous", Map.of()), Map.of(),
			new KeyLimits(Map.of("anonymous", Map.of("tenant", Map.of("default", LimitParser.parse("2/1h")))),
					Map.of("repo", Map.of("repos", LimitParser.parse("3/1h")))),
			Set.of("repos"), new PolicyOptions(ZoneOffset.UTC, Mode.ENFORCE, 0, Map.of(), Map.of()));

	private final RequestKeys keys = new RequestKeys(
			Map.of("tenant", new HeaderKeyResolver("X-Tenant-Id"), "repo", new PathVariableKeyResolver("repo")));

	private final RuntimeControl control = new RuntimeControl(new InMemoryControlStore(this.clock),
			new PolicyRegistry(this.table), List.of(), BanRules.NONE, this.clock, Duration.ofSeconds(1));

	private final InMemoryRateLimitStore store = new InMemoryRateLimitStore(1000, this.clock, this.clock);

	private final StoreKeys storeKeys = new StoreKeys(StoreKeys.DEFAULT_PREFIX);

	private final Identifier identifier = new Identifier(List.of(), new ClientIpResolver(List.of(), 32, 64),
			this.table.tiers(), "anonymous", "anonymous");

	private final CallerStatus status = new CallerStatus(this.identifier, this.control, this.store,
			new BucketReader(this.store, this.storeKeys), (group) -> 1, Clock.fixed(NOW, ZoneOffset.UTC), this.keys);

	@Test
	void aHeaderKeysBudgetIsReadFromTheStatusRequestAndNamedByTheKey() {
		RateLimiter limiter = RateLimiter.builder(this.identifier, this.store)
			.control(this.control)
			.requestKeys(this.keys)
			.storeKeys(this.storeKeys)
			.clock(this.clock)
			.build();
		limiter.decide(TestRequest.from("203.0.113.7").header("X-Tenant-Id", "acme"), Classification.of("default", 1));

		CallerStanding acme = known(this.status.status(TestRequest.from("198.51.100.9").header("X-Tenant-Id", "acme")));
		assertThat(acme.keys()).containsExactly(Map.entry("tenant", "acme"));
		assertThat(acme.groups().get("default").budgets())
			.extracting(Budget::name, Budget::scopeName, Budget::remaining)
			.contains(tuple("anonymous-tenant-default", "tenant", 1L));
		assertThat(acme.groups().get("repos").budgets()).extracting(Budget::scopeName)
			.as("no repository outside a repository's path")
			.doesNotContain("repo");

		CallerStanding globex = known(
				this.status.status(TestRequest.from("203.0.113.7").header("X-Tenant-Id", "globex")));
		assertThat(globex.groups().get("default").budgets()).extracting(Budget::name, Budget::remaining)
			.contains(tuple("anonymous-tenant-default", 2L));

		CallerStanding none = known(this.status.status(TestRequest.from("203.0.113.7")));
		assertThat(none.keys()).isEmpty();
		assertThat(none.groups().get("default").budgets()).extracting(Budget::scopeName).doesNotContain("tenant");
	}

	@Test
	void theBodyNamesTheKeyAsTheScopeAndTheValueInTheIdentity() {
		CallerStanding acme = known(
				this.status.status(TestRequest.from("198.51.100.9").header("X-Tenant-Id", "acme \"corp\"")));
		JsonNode body = JsonMapper.builder()
			.build()
			.readTree(new String(CallerStatusBody.write(acme), StandardCharsets.UTF_8));
		assertThat(body.get("identity").get("keys").get("tenant").asString()).isEqualTo("acme \"corp\"");
		assertThat(body.get("groups").get("default").get("policies").get(0).get("scope").asString())
			.isEqualTo("tenant");
		CallerStanding none = known(this.status.status(TestRequest.from("198.51.100.9")));
		assertThat(new String(CallerStatusBody.write(none), StandardCharsets.UTF_8)).doesNotContain("\"keys\"");
	}

	private static CallerStanding known(StatusAnswer answer) {
		assertThat(answer).isInstanceOf(StatusAnswer.Known.class);
		return ((StatusAnswer.Known) answer).standing();
	}

}
