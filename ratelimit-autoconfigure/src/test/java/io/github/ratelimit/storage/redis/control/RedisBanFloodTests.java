package io.github.ratelimit.storage.redis.control;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanIterator;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import io.github.ratelimit.control.BanRule;
import io.github.ratelimit.control.BanRules;
import io.github.ratelimit.control.RuntimeControl;
import io.github.ratelimit.core.Decision;
import io.github.ratelimit.core.Outcome;
import io.github.ratelimit.core.RateLimiter;
import io.github.ratelimit.identity.ClientIpResolver;
import io.github.ratelimit.identity.Identifier;
import io.github.ratelimit.policy.Classification;
import io.github.ratelimit.policy.PolicyRegistry;
import io.github.ratelimit.policy.PolicyTable;
import io.github.ratelimit.storage.redis.RedisRateLimitStore;
import io.github.ratelimit.storage.redis.connection.CircuitBreaker;
import io.github.ratelimit.storage.redis.connection.RedisConnector;
import io.github.ratelimit.storage.redis.script.RedisScriptRateLimitStore;
import io.github.ratelimit.test.StoreFailureAssertions;
import io.github.ratelimit.test.TestRequest;
import io.github.ratelimit.test.redis.RedisMonitor;
import io.github.ratelimit.test.redis.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An attacker that rotates addresses grows the bans: 300,000 of them in Redis and a
 * trickle of new ones must neither make every instance re-read them all nor let a caller
 * whose budget is spent through.
 */
class RedisBanFloodTests {

	private static final int RECORDS = 300_000;

	private final List<AutoCloseable> resources = new ArrayList<>();

	private String prefix;

	private RedisClient client;

	private RedisCommands<String, String> redis;

	@BeforeEach
	void setUp() {
		this.prefix = RedisTestServer.uniqueKeyPrefix("ban-flood");
		this.client = RedisClient.create(RedisTestServer.url());
		this.resources.add(this.client::shutdown);
		StatefulRedisConnection<String, String> connection = this.client.connect();
		this.resources.add(connection);
		this.redis = connection.sync();
	}

	@AfterEach
	void tearDown() throws Exception {
		List<String> keys = new ArrayList<>();
		ScanIterator.scan(this.redis, ScanArgs.Builder.matches("*" + this.prefix + "*").limit(10_000))
			.forEachRemaining(keys::add);
		for (int i = 0; i < keys.size(); i += 10_000) {
			this.redis.unlink(keys.subList(i, Math.min(keys.size(), i + 10_000)).toArray(String[]::new));
		}
		for (int i = this.resources.size() - 1; i >= 0; i--) {
			this.resources.get(i).close();
		}
	}

	@Test
	void withManyBansInRedisASpentCallerStaysRefusedAndEachNewBanIsReadAloneOnEveryInstance() throws Exception {
		writeBans(RECORDS);
		RedisControlStore store = new RedisControlStore(RedisConnector.of(this.client), this.prefix,
				Duration.ofSeconds(2), 2 * RECORDS);
		this.resources.add(store);
		PolicyTable table = PolicyTable.build(Map.of("anonymous", Map.of("ip", Map.of("default", "5/1h"))), Map.of(),
				Set.of());
		RuntimeControl control = new RuntimeControl(store, new PolicyRegistry(table), List.of(), BanRules.NONE,
				Clock.systemUTC(), Duration.ofMillis(100));
		this.resources.add(control);
		control.start();
		await().atMost(Duration.ofSeconds(60)).until(() -> control.bans().size() == RECORDS);
		// the defaults: that Redis itself never blocks is asserted below from its slow
		// log
		RedisScriptRateLimitStore buckets = new RedisScriptRateLimitStore(RedisConnector.of(this.client),
				RedisRateLimitStore.DEFAULT_TIMEOUT, new CircuitBreaker());
		this.resources.add(buckets);
		buckets.start();
		await().atMost(Duration.ofSeconds(10)).until(buckets::isConnected);
		RateLimiter limiter = RateLimiter
			.builder(new Identifier(List.of(), new ClientIpResolver(List.of(), 32, 64), table.tiers(), "anonymous",
					"authenticated"), buckets)
			.control(control)
			.build();
		for (int i = 0; i < 5; i++) {
			assertThat(decide(limiter).outcome()).isEqualTo(Outcome.ALLOWED);
		}
		// another instance bans one more caller every 50 ms while the spent caller keeps
		// calling
		RedisControlStore other = new RedisControlStore(RedisConnector.of(this.client), this.prefix,
				Duration.ofSeconds(2), 2 * RECORDS);
		this.resources.add(other);
		// connected, as an instance's first refresh connects it
		other.version();
		BanRule oneRefusal = new BanRule(1, Duration.ofMinutes(1), Duration.ofHours(1), Duration.ofHours(1),
				Duration.ofDays(1));
		List<String> trickle = new ArrayList<>();
		List<Decision> decisions = new ArrayList<>();
		String slowerThan = this.redis.configGet("slowlog-log-slower-than").get("slowlog-log-slower-than");
		this.redis.configSet("slowlog-log-slower-than", "25000");
		this.redis.slowlogReset();
		try (RedisMonitor monitor = RedisMonitor.start(RedisTestServer.host(), RedisTestServer.port())) {
			long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
			long nextBan = 0;
			while (System.nanoTime() < end) {
				if (System.nanoTime() >= nextBan) {
					String subject = "ip:2001:db8:ffff:" + Integer.toHexString(trickle.size()) + "::/64";
					assertThat(other.recordRefusal(subject, oneRefusal).get(2, TimeUnit.SECONDS)).isNotNull();
					trickle.add(subject);
					nextBan = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(50);
				}
				decisions.add(decide(limiter));
			}
			await().atMost(Duration.ofSeconds(5)).until(() -> control.bans().size() == RECORDS + trickle.size());
			List<String> wholeReads = monitor.commands(this.prefix + "control}")
				.stream()
				.filter((command) -> !command.fromScript())
				.map(RedisMonitor.Command::name)
				.filter((name) -> Set.of("HGETALL", "ZSCAN", "ZRANGE", "ZRANGEBYSCORE", "SCAN", "KEYS").contains(name))
				.toList();
			assertThat(wholeReads).as("reads of every ban or record while %d bans started", trickle.size()).isEmpty();
			assertThat(slowCommands()).as("commands that held Redis for 25 ms or more").isEmpty();
		}
		finally {
			this.redis.configSet("slowlog-log-slower-than", slowerThan);
		}
		assertThat(trickle).hasSizeGreaterThan(20);
		assertThat(decisions).hasSizeGreaterThan(100);
		assertThat(decisions).extracting(Decision::outcome).containsOnly(Outcome.REJECTED);
		StoreFailureAssertions.assertNoDecisionFellBack(limiter);
	}

	private List<String> slowCommands() {
		List<String> slow = new ArrayList<>();
		for (Object entry : this.redis.slowlogGet(128)) {
			List<?> fields = (List<?>) entry;
			String command = String.valueOf(fields.get(3));
			if (command.contains(this.prefix)) {
				slow.add(fields.get(2) + " us: " + command);
			}
		}
		return slow;
	}

	private Decision decide(RateLimiter limiter) {
		return limiter.decide(TestRequest.from("198.51.100.77"), Classification.of("default", 1));
	}

	/**
	 * Bans an earlier flood left, written straight into Redis as the ban script writes
	 * them.
	 */
	private void writeBans(int count) throws Exception {
		StatefulRedisConnection<byte[], byte[]> connection = this.client
			.connect(io.lettuce.core.codec.ByteArrayCodec.INSTANCE);
		try {
			connection.setAutoFlushCommands(false);
			RedisAsyncCommands<byte[], byte[]> commands = connection.async();
			String tag = "{" + this.prefix + "control}:";
			byte[] active = bytes(tag + "bans:active");
			long until = System.currentTimeMillis() + Duration.ofHours(1).toMillis();
			List<RedisFuture<?>> pending = new ArrayList<>();
			for (int i = 0; i < count; i++) {
				String subject = "ip:2001:db8:" + Integer.toHexString(i >> 16) + ":" + Integer.toHexString(i & 0xffff)
						+ "::/64";
				pending.add(commands.zadd(active, until, bytes(subject)));
				pending.add(commands.set(bytes(tag + "ban:" + ControlRecords.hashed(subject)),
						bytes(until + ":1:" + (until + Duration.ofDays(1).toMillis())),
						SetArgs.Builder.px(Duration.ofDays(1))));
				if (pending.size() >= 20_000) {
					connection.flushCommands();
					for (RedisFuture<?> future : pending) {
						future.get(30, TimeUnit.SECONDS);
					}
					pending.clear();
				}
			}
			connection.flushCommands();
			for (RedisFuture<?> future : pending) {
				future.get(30, TimeUnit.SECONDS);
			}
		}
		finally {
			connection.close();
		}
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.UTF_8);
	}

}
