package io.github.ratelimit.control;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.lettuce.core.RedisClient;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanIterator;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

import io.github.ratelimit.identity.Identity;
import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.policy.PolicyRegistry;
import io.github.ratelimit.policy.PolicyTable;
import io.github.ratelimit.storage.redis.connection.RedisConnector;
import io.github.ratelimit.storage.redis.control.RedisControlStore;
import io.github.ratelimit.test.redis.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Runtime control over a real Redis holding records no check let through (written by
 * hand, or by an older version): each is skipped, the others and every later change
 * apply.
 */
class RuntimeControlOnRedisTests {

	private final List<AutoCloseable> resources = new ArrayList<>();

	private final PolicyTable table = PolicyTable.build(
			Map.of("free", Map.of("org", Map.of("default", "100/1m"), "user", Map.of("default", "10/1m"))),
			Map.of("default", "5000/1m"), Set.of("export"));

	private String prefix;

	private RedisCommands<String, String> redis;

	private RedisControlStore store;

	@BeforeEach
	void setUp(TestInfo test) {
		this.prefix = RedisTestServer.uniqueKeyPrefix(test.getTestMethod().orElseThrow().getName());
		RedisClient client = RedisClient.create(RedisTestServer.url());
		this.resources.add(client::shutdown);
		StatefulRedisConnection<String, String> connection = client.connect();
		this.resources.add(connection);
		this.redis = connection.sync();
		this.store = new RedisControlStore(RedisConnector.of(client), this.prefix, Duration.ofSeconds(2));
		this.resources.add(this.store);
	}

	@AfterEach
	void tearDown() throws Exception {
		List<String> keys = new ArrayList<>();
		ScanIterator.scan(this.redis, ScanArgs.Builder.matches("{" + this.prefix + "*").limit(1000))
			.forEachRemaining(keys::add);
		keys.forEach(this.redis::del);
		for (int i = this.resources.size() - 1; i >= 0; i--) {
			this.resources.get(i).close();
		}
	}

	private RuntimeControl control() {
		RuntimeControl control = new RuntimeControl(this.store, new PolicyRegistry(this.table), List.of(),
				BanRules.NONE, Clock.systemUTC(), Duration.ofSeconds(1));
		control.refresh();
		return control;
	}

	@Test
	void recordsThatCannotApplyAreSkippedAndLaterChangesApplyOnEveryInstance() {
		String tag = "{" + this.prefix + "control}:";
		// an expiry as far out as milliseconds go, a limit and a group the configuration
		// refuses
		this.redis.hset(tag + "overrides", "org\ndefault\nacme", "1/1m\n" + Long.MAX_VALUE);
		this.redis.hset(tag + "overrides", "org\ndefault\nglobex", "lots/1m\n");
		this.redis.hset(tag + "overrides", "org\nremoved-group\ninitech", "1/1m\n");
		this.redis.hset(tag + "overrides", "org\ndefault\nhooli", "1/1m\nnot-a-time");
		this.redis.hset(tag + "rules", "user:mallory", "DENY\n\n" + Long.MAX_VALUE);
		this.redis.incr(tag + "version");
		RuntimeControl a = control();
		RuntimeControl b = control();
		a.setOverride(Dimension.USER, "alice", "default", "70/1m", Instant.now().plusSeconds(3600));
		a.setRule(new AccessRule(AccessRule.Access.DENY, Subject.parse("203.0.113.0/24"), null, null));
		b.refresh();
		Identity alice = new Identity("alice", "acme", null, "203.0.113.9", "free", true);
		Identity mallory = new Identity("mallory", "globex", null, "198.51.100.1", "free", true);
		for (RuntimeControl control : List.of(a, b)) {
			assertThat(limitOf(control.policies(alice, "default"), Dimension.USER))
				.isEqualTo("override-user-default=70/1m");
			assertThat(limitOf(control.policies(alice, "default"), Dimension.ORG))
				.isEqualTo("override-org-default=1/1m");
			assertThat(limitOf(control.policies(mallory, "default"), Dimension.ORG))
				.isEqualTo("free-org-default=100/1m");
			assertThat(control.access(alice, "203.0.113.9").denied()).isTrue();
			assertThat(control.access(mallory, "198.51.100.1").denied()).isTrue();
		}
	}

	@Test
	void anExpiryNoStoreCouldKeepIsRefusedBeforeAnythingIsWritten() {
		RuntimeControl control = control();
		long version = this.store.version();
		// on Redis this was the store failing to encode it: a 503, as if Redis were down
		assertThatExceptionOfType(InvalidControlInputException.class)
			.isThrownBy(() -> control.setOverride(Dimension.ORG, "acme", "default", "1/1m",
					Instant.parse("+1000000000-12-31T23:59:59Z")))
			.satisfies((ex) -> assertThat(ex.getField()).isEqualTo("expires"));
		assertThat(this.store.version()).isEqualTo(version);
		assertThat(this.store.load().overrides()).isEmpty();
	}

	private static String limitOf(List<Policy> policies, Dimension dimension) {
		return policies.stream()
			.filter((policy) -> policy.dimension() == dimension && !policy.isBackstop())
			.map((policy) -> policy.name() + "=" + policy.limit().spec())
			.findFirst()
			.orElse("none");
	}

}
