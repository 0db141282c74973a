package io.github.ratelimit.storage.redis.control;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import io.lettuce.core.RedisClient;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanIterator;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

import io.github.ratelimit.control.AccessRule;
import io.github.ratelimit.control.Ban;
import io.github.ratelimit.control.BanChanges;
import io.github.ratelimit.control.BanRule;
import io.github.ratelimit.control.BanRules;
import io.github.ratelimit.control.ControlState;
import io.github.ratelimit.control.LimitOverride;
import io.github.ratelimit.control.RuntimeControl;
import io.github.ratelimit.control.Subject;
import io.github.ratelimit.identity.Identity;
import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.policy.PolicyRegistry;
import io.github.ratelimit.policy.PolicyTable;
import io.github.ratelimit.storage.StoreUnavailableException;
import io.github.ratelimit.storage.redis.connection.RedisConnector;
import io.github.ratelimit.test.ManualTimeMeter;
import io.github.ratelimit.test.redis.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runtime control in a real Redis, shared by two stores as two instances share it:
 * overrides, rules and bans written through one are read through the other; bans are
 * counted and doubled by the script on the injected clock.
 */
class RedisControlStoreTests {

	private static final BanRule RULE = new BanRule(3, Duration.ofMinutes(1), Duration.ofHours(1), Duration.ofHours(3),
			Duration.ofDays(1));

	private final ManualTimeMeter time = new ManualTimeMeter(Instant.parse("2026-03-01T10:00:00Z"));

	private final List<AutoCloseable> resources = new ArrayList<>();

	private String prefix;

	private RedisCommands<String, String> redis;

	private RedisClient client;

	private RedisControlStore a;

	private RedisControlStore b;

	@BeforeEach
	void setUp(TestInfo test) {
		this.prefix = RedisTestServer.uniqueKeyPrefix(test.getTestMethod().orElseThrow().getName());
		RedisClient client = RedisClient.create(RedisTestServer.url());
		this.client = client;
		this.resources.add(client::shutdown);
		StatefulRedisConnection<String, String> connection = client.connect();
		this.resources.add(connection);
		this.redis = connection.sync();
		this.a = store(client);
		this.b = store(client);
		// connected, as an instance's first refresh connects it
		this.a.version();
		this.b.version();
	}

	private RedisControlStore store(RedisClient client) {
		RedisControlStore store = new RedisControlStore(RedisConnector.of(client), this.prefix, Duration.ofSeconds(2),
				this.time::millis);
		this.resources.add(store);
		return store;
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

	@Test
	void closingDoesNotWaitForAConnectUnderWayAndTheConnectionItOpensIsClosed() throws Exception {
		CountDownLatch connecting = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		AtomicReference<StatefulConnection<byte[], byte[]>> opened = new AtomicReference<>();
		RedisConnector slow = () -> {
			connecting.countDown();
			try {
				release.await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			opened.set(RedisConnector.of(this.client).connect());
			return opened.get();
		};
		RedisControlStore store = new RedisControlStore(slow, this.prefix, Duration.ofSeconds(2), this.time::millis);
		CompletableFuture<Long> refresh = CompletableFuture.supplyAsync(store::version);
		assertThat(connecting.await(10, TimeUnit.SECONDS)).isTrue();
		// a refresh holds the store while Lettuce connects: shutting the context down
		// must not wait for it
		CompletableFuture<Void> closing = CompletableFuture.runAsync(store::close);
		closing.get(10, TimeUnit.SECONDS);
		release.countDown();
		assertThat(refresh).failsWithin(Duration.ofSeconds(10))
			.withThrowableOfType(ExecutionException.class)
			.withCauseInstanceOf(StoreUnavailableException.class);
		assertThat(opened.get()).isNotNull();
		assertThat(opened.get().isOpen()).as("the connection opened after close").isFalse();
	}

	@Test
	void overridesAndRulesWrittenThroughOneStoreAreReadThroughTheOtherUntilTheyExpire() {
		long version = this.b.version();
		Instant inAnHour = this.time.instant().plusSeconds(3600);
		this.a.putOverride(new LimitOverride(Dimension.ORG, "acme", "default", "500/1m, 100000/month", inAnHour));
		this.a.putOverride(new LimitOverride(Dimension.USER, "o'brien: the \"admin\"", "export", "5/1m", null));
		this.a.putRule(new AccessRule(AccessRule.Access.ALLOW, Subject.parse("user:partner-bot"), "premium", null));
		this.a.putRule(new AccessRule(AccessRule.Access.DENY, Subject.parse("192.0.2.0/24"), null, inAnHour));
		assertThat(this.b.version()).isGreaterThan(version);
		ControlState state = this.b.load();
		assertThat(state.overrides()).containsExactlyInAnyOrder(
				new LimitOverride(Dimension.ORG, "acme", "default", "500/1m, 100000/month", inAnHour),
				new LimitOverride(Dimension.USER, "o'brien: the \"admin\"", "export", "5/1m", null));
		assertThat(state.rules()).extracting(AccessRule::spec)
			.containsExactlyInAnyOrder("user:partner-bot as premium", "ip:192.0.2.0/24");
		this.time.advance(Duration.ofSeconds(3600));
		ControlState later = this.b.load();
		assertThat(later.overrides()).extracting(LimitOverride::id).containsExactly("o'brien: the \"admin\"");
		assertThat(later.rules()).extracting(AccessRule::spec).containsExactly("user:partner-bot as premium");
		assertThat(this.a.deleteOverride(Dimension.USER, "o'brien: the \"admin\"", "export")).isTrue();
		assertThat(this.a.deleteRule(Subject.parse("user:partner-bot"))).isTrue();
		assertThat(this.b.load()).isEqualTo(ControlState.EMPTY);
	}

	@Test
	void refusalsCountedThroughBothStoresBanOnceAndARepeatBanLastsTwiceAsLongUpToTheCap() {
		assertThat(this.a.recordRefusal("ip:198.51.100.66", RULE).join()).isNull();
		assertThat(this.b.recordRefusal("ip:198.51.100.66", RULE).join()).isNull();
		Ban first = this.a.recordRefusal("ip:198.51.100.66", RULE).join();
		assertThat(first).isEqualTo(new Ban("ip:198.51.100.66", this.time.instant().plusSeconds(3600), 1));
		assertThat(bansInForce(this.b)).containsEntry("ip:198.51.100.66", first);
		// refusals while banned count for nothing
		for (int i = 0; i < 10; i++) {
			assertThat(this.b.recordRefusal("ip:198.51.100.66", RULE).join()).isNull();
		}
		this.time.advance(Duration.ofHours(1));
		assertThat(bansInForce(this.b)).isEmpty();
		for (int i = 0; i < 2; i++) {
			assertThat(this.b.recordRefusal("ip:198.51.100.66", RULE).join()).isNull();
		}
		Ban second = this.b.recordRefusal("ip:198.51.100.66", RULE).join();
		assertThat(second).isEqualTo(new Ban("ip:198.51.100.66", this.time.instant().plus(Duration.ofHours(2)), 2));
		// lifted at once; the record stays, so the third ban still doubles (up to the 3 h
		// cap)
		assertThat(this.a.liftBan("ip:198.51.100.66")).isTrue();
		assertThat(bansInForce(this.b)).isEmpty();
		for (int i = 0; i < 2; i++) {
			this.a.recordRefusal("ip:198.51.100.66", RULE).join();
		}
		Ban third = this.a.recordRefusal("ip:198.51.100.66", RULE).join();
		assertThat(third.until()).isEqualTo(this.time.instant().plus(Duration.ofHours(3)));
		assertThat(third.offence()).isEqualTo(3);
		// a day after its last ban ends, the subject starts over
		this.time.advance(Duration.ofHours(3).plusDays(1));
		for (int i = 0; i < 2; i++) {
			this.a.recordRefusal("ip:198.51.100.66", RULE).join();
		}
		assertThat(this.a.recordRefusal("ip:198.51.100.66", RULE).join().offence()).isEqualTo(1);
	}

	@Test
	void bansTravelAsChangesAfterTheReadersCursorWithoutMovingTheVersionAndABadEntryIsSkipped() {
		BanRule once = new BanRule(1, Duration.ofMinutes(1), Duration.ofHours(1), Duration.ofHours(3),
				Duration.ofDays(1));
		long version = this.b.version();
		BanChanges first = this.b.banChanges(null);
		assertThat(first.resync()).isTrue();
		assertThat(first.changes()).isEmpty();
		Ban mallory = this.a.recordRefusal("ip:198.51.100.66", once).join();
		String log = "{" + this.prefix + "control}:bans:log";
		this.redis.xadd(log, Map.of("s", "ip:198.51.100.67", "u", "not a time", "o", "1"));
		Ban trudy = this.a.recordRefusal("user:trudy", once).join();
		assertThat(this.a.liftBan("ip:198.51.100.66")).isTrue();
		BanChanges changes = this.b.banChanges(first.cursor());
		assertThat(changes.resync()).isFalse();
		assertThat(changes.changes()).containsExactly(BanChanges.Change.started(mallory),
				BanChanges.Change.started(trudy), BanChanges.Change.lifted("ip:198.51.100.66"));
		assertThat(this.b.banChanges(changes.cursor()).changes()).isEmpty();
		assertThat(this.b.version()).as("operators' version").isEqualTo(version);
		// a reader whose cursor the stream no longer holds reads the bans in force again
		this.redis.xtrim(log, 0);
		BanChanges again = this.b.banChanges(changes.cursor());
		assertThat(again.resync()).isTrue();
		assertThat(again.changes()).containsExactly(BanChanges.Change.started(trudy));
	}

	@Test
	void aFullSetOfBansStartsNoMoreUntilOneEnds() {
		RedisControlStore small = new RedisControlStore(RedisConnector.of(this.client), this.prefix,
				Duration.ofSeconds(2), 2, this.time::millis);
		this.resources.add(small);
		small.version();
		BanRule once = new BanRule(1, Duration.ofMinutes(1), Duration.ofHours(1), Duration.ofHours(3),
				Duration.ofDays(1));
		assertThat(small.recordRefusal("ip:198.51.100.1", once).join()).isNotNull();
		assertThat(small.recordRefusal("ip:198.51.100.2", once).join()).isNotNull();
		assertThat(small.recordRefusal("ip:198.51.100.3", once)).failsWithin(Duration.ofSeconds(5))
			.withThrowableThat()
			.withCauseInstanceOf(io.github.ratelimit.control.TooManyBansException.class);
		this.time.advance(Duration.ofHours(1));
		assertThat(small.recordRefusal("ip:198.51.100.3", once).join()).isNotNull();
	}

	@Test
	void banRecordsKeptForDoublingAreBoundedAndTheSoonestForgottenGoFirst() {
		RedisControlStore small = new RedisControlStore(RedisConnector.of(this.client), this.prefix,
				Duration.ofSeconds(2), 2, this.time::millis);
		this.resources.add(small);
		small.version();
		BanRule once = new BanRule(1, Duration.ofMinutes(1), Duration.ofHours(1), Duration.ofHours(3),
				Duration.ofDays(1));
		// rotating addresses, one short ban each: every record outlives its ban by a day
		for (int i = 1; i <= 20; i++) {
			assertThat(small.recordRefusal("ip:198.51.100." + i, once).join()).isNotNull();
			this.time.advance(Duration.ofHours(1).plusSeconds(1));
		}
		assertThat(keys("{" + this.prefix + "control}:ban:*")).hasSize((int) small.maxBanRecords());
		// the latest offender is remembered: its next ban doubles; the first one was
		// forgotten
		assertThat(small.recordRefusal("ip:198.51.100.20", once).join().offence()).isEqualTo(2);
		assertThat(small.recordRefusal("ip:198.51.100.1", once).join().offence()).isEqualTo(1);
	}

	@Test
	void refusalsOutsideTheWindowDoNotAddUp() {
		// the counter expires with Redis's own clock: a window long enough that the test
		// stays inside it
		BanRule rule = new BanRule(3, Duration.ofMinutes(5), Duration.ofHours(1), Duration.ofHours(1), Duration.ZERO);
		this.a.recordRefusal("user:slow", rule).join();
		this.a.recordRefusal("user:slow", rule).join();
		this.redis.del(List.copyOf(keys("{" + this.prefix + "control}:refusals:*")).toArray(String[]::new));
		assertThat(this.a.recordRefusal("user:slow", rule).join()).isNull();
	}

	@Test
	void twoInstancesApplyEachOthersChangesWithinTheRefreshInterval() {
		PolicyTable table = PolicyTable.build(Map.of("free", Map.of("org", Map.of("default", "100/1m"))), Map.of(),
				Set.of());
		BanRules bans = new BanRules(new BanRules.Settings(2, null, null, null, null), Map.of(), Map.of());
		RuntimeControl one = new RuntimeControl(this.a, new PolicyRegistry(table), List.of(), bans, this.time,
				Duration.ofMillis(50));
		RuntimeControl two = new RuntimeControl(this.b, new PolicyRegistry(table), List.of(), bans, this.time,
				Duration.ofMillis(50));
		this.resources.add(one);
		this.resources.add(two);
		one.start();
		two.start();
		Identity acme = new Identity("alice", "acme", null, "203.0.113.9", "free", true);
		one.setOverride(Dimension.ORG, "acme", "default", "7/1m", null);
		org.awaitility.Awaitility.await()
			.atMost(Duration.ofSeconds(5))
			.until(() -> two.policies(acme, "default")
				.stream()
				.anyMatch((policy) -> policy.name().equals("override-org-default")));
		Policy override = two.policies(acme, "default").get(0);
		assertThat(override.limit().spec()).isEqualTo("7/1m");
		two.refused(acme, "free", "default");
		two.refused(acme, "free", "default");
		org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> one.ban(acme) != null);
		assertThat(one.ban(acme).subject()).isEqualTo("user:alice");
		assertThat(one.liftBan(Subject.of(Dimension.USER, "alice"))).isTrue();
		assertThat(one.ban(acme)).isNull();
		org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> two.ban(acme) == null);
	}

	/** The bans in force as an instance's first read finds them. */
	static Map<String, Ban> bansInForce(RedisControlStore store) {
		BanChanges all = store.banChanges(null);
		assertThat(all.resync()).isTrue();
		Map<String, Ban> bans = new java.util.HashMap<>();
		all.changes().forEach((change) -> bans.put(change.subject(), change.started()));
		return bans;
	}

	private List<String> keys(String pattern) {
		List<String> keys = new ArrayList<>();
		ScanIterator.scan(this.redis, ScanArgs.Builder.matches(pattern).limit(1000)).forEachRemaining(keys::add);
		return keys;
	}

}
