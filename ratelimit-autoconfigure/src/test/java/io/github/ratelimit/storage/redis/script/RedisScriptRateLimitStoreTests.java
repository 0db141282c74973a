package io.github.ratelimit.storage.redis.script;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.storage.BandwidthResult;
import io.github.ratelimit.storage.LimitCheck;
import io.github.ratelimit.storage.StoreDecision;
import io.github.ratelimit.storage.redis.RedisRateLimitStore;
import io.github.ratelimit.storage.redis.RedisRateLimitStoreContractTests;
import io.github.ratelimit.storage.redis.connection.CircuitBreaker;
import io.github.ratelimit.storage.redis.connection.RedisConnector;
import io.github.ratelimit.test.ManualTimeMeter;
import io.github.ratelimit.test.redis.RedisMonitor;
import io.github.ratelimit.test.redis.RedisTestServer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The {@code script} strategy: one atomic script per request.
 */
class RedisScriptRateLimitStoreTests extends RedisRateLimitStoreContractTests {

	@Override
	protected RedisRateLimitStore<?> newStore(RedisConnector connector, Duration timeout, CircuitBreaker breaker,
			@Nullable ManualTimeMeter clock) {
		return new RedisScriptRateLimitStore(connector, timeout, breaker,
				(clock != null) ? () -> clock.currentTimeNanos() / 1_000_000 : null, null);
	}

	@Test
	void decidesUserOrgAndAddressInOneRoundTrip() {
		RedisRateLimitStore<?> store = connectedStore();
		// loads the script, so that the request below is not the one that finds it
		// missing
		store.decide(List.of(check("5/1h", "warm-up", 1)));
		List<LimitCheck> request = List.of(check(Dimension.ORG, "1000/1m", "measured-org", 1),
				check(Dimension.USER, "100/1m, 1000/1h", "measured-user", 1),
				check(Dimension.IP, "6000/1m", "measured-ip", 1));
		try (RedisMonitor monitor = RedisMonitor.start(RedisTestServer.host(), RedisTestServer.port())) {
			assertThat(store.decide(request).admitted()).isTrue();
			// the script's own writes are the last thing Redis reports of the request
			await().atMost(Duration.ofSeconds(5))
				.until(() -> monitor.commands("measured-")
					.stream()
					.filter(RedisMonitor.Command::fromScript)
					.filter((command) -> command.name().equals("PEXPIRE"))
					.count() == 3);
			List<RedisMonitor.Command> sent = monitor.commands("measured-")
				.stream()
				.filter((command) -> !command.fromScript())
				.toList();
			assertThat(sent).as("commands the store sent for the request")
				.singleElement()
				.satisfies((command) -> assertThat(command.name()).isEqualTo("EVALSHA"));
		}
	}

	@Test
	void aBusyTokenBucketSetsItsExpiryOnlyWhenItsTimeToFullPassesIt() {
		RedisRateLimitStore<?> store = connectedStore();
		LimitCheck check = check("100000/1m", "expiring-busy", 1);
		try (RedisMonitor monitor = RedisMonitor.start(RedisTestServer.host(), RedisTestServer.port())) {
			for (int i = 0; i < 100; i++) {
				assertThat(store.decide(List.of(check)).admitted()).isTrue();
			}
			await().atMost(Duration.ofSeconds(5))
				.until(() -> monitor.commands("expiring-busy")
					.stream()
					.filter((command) -> command.fromScript() && command.name().equals("HSET"))
					.count() == 100);
			long expires = monitor.commands("expiring-busy")
				.stream()
				.filter((command) -> command.fromScript() && command.name().equals("PEXPIRE"))
				.count();
			// each take adds 0.6 ms to the time to full, the expiry is set a second ahead
			assertThat(expires).as("PEXPIRE among 100 writes").isBetween(1L, 10L);
		}
	}

	@Test
	void aKeyWrittenOnceExpiresWithItsBucketFull() {
		// a flood of one request per address keeps no key longer than its bucket needs
		RedisRateLimitStore<?> store = connectedStore();
		LimitCheck check = check("60/1m", "expiring-once", 1);
		StoreDecision decision = store.decide(List.of(check));
		long untilFull = decision.results().get(0).bandwidths().get(0).millisUntilFull();
		assertThat(this.redis.pttl(redisKey(store, check))).isPositive().isLessThanOrEqualTo(untilFull);
	}

	@Test
	void aKeyLastWrittenByAnOlderScriptGetsItsExpirySetAgain() {
		// an older version of the script (a rolling upgrade) sets the expiry without the
		// field that says when it is: that field no longer holds
		RedisRateLimitStore<?> store = connectedStore();
		LimitCheck check = check("1000/1m", "expiring-upgraded", 1);
		for (int i = 0; i < 100; i++) {
			store.decide(List.of(check));
		}
		String key = redisKey(store, check);
		this.redis.hset(key, "t", String.valueOf(Long.parseLong(this.redis.hget(key, "t")) - 1));
		this.redis.pexpire(key, 100);
		StoreDecision decision = store.decide(List.of(check));
		long untilFull = decision.results().get(0).bandwidths().get(0).millisUntilFull();
		assertThat(untilFull).isGreaterThan(5_000);
		assertThat(this.redis.pttl(key)).isGreaterThanOrEqualTo(untilFull - 250);
	}

	@Test
	void requestsThatArriveTogetherShareCallsAndAreStillDecidedOneByOne() {
		RedisRateLimitStore<?> store = connectedStore();
		store.decide(List.of(check("5/1h", "warm-up", 1)));
		LimitCheck hot = check(Dimension.USER, "50/1h", "batched-user", 1);
		try (RedisMonitor monitor = RedisMonitor.start(RedisTestServer.host(), RedisTestServer.port())) {
			List<CompletableFuture<StoreDecision>> decisions = new ArrayList<>();
			for (int i = 0; i < 200; i++) {
				decisions.add(store.decideAsync(List.of(hot)));
			}
			List<StoreDecision> answers = decisions.stream().map(CompletableFuture::join).toList();
			assertThat(answers.stream().filter(StoreDecision::admitted).count()).isEqualTo(50);
			// in arrival order: the first 50 were admitted, counting down, and the rest
			// refused
			for (int i = 0; i < 50; i++) {
				assertThat(remaining(answers.get(i), 0)).containsExactly(49 - i);
			}
			await().atMost(Duration.ofSeconds(5)).until(() -> !monitor.commands("batched-user").isEmpty());
			long calls = monitor.commands("batched-user").stream().filter((command) -> !command.fromScript()).count();
			assertThat(calls).as("script calls for 200 decisions").isBetween(1L, 100L);
		}
	}

	@Test
	void spreadsAcrossSlotsAndStillDrainsNothingWhenOneSlotRefuses() {
		// every key a slot of its own, as in Redis Cluster: one script per slot,
		// give-backs on refusal
		ManualTimeMeter clock = new ManualTimeMeter();
		RedisRateLimitStore<?> store = new RedisScriptRateLimitStore(RedisConnector.of(client(RedisTestServer.url())),
				RedisRateLimitStore.DEFAULT_TIMEOUT, new CircuitBreaker(), () -> clock.currentTimeNanos() / 1_000_000,
				java.util.Arrays::hashCode);
		this.resources.add(store);
		store.start();
		await().atMost(Duration.ofSeconds(10)).until(store::isConnected);
		LimitCheck user = check(Dimension.USER, "10/1h", "alice", 1);
		LimitCheck ip = check(Dimension.IP, "10/1h", "203.0.113.9", 1);
		LimitCheck org = check(Dimension.ORG, "1/1h", "acme", 1);
		assertThat(store.decide(List.of(org, user, ip)).admitted()).isTrue();

		StoreDecision rejected = store.decide(List.of(org, user, ip));

		assertThat(rejected.admitted()).isFalse();
		assertThat(rejected.results().get(0).hadTokens()).isFalse();
		assertThat(rejected.results().get(1).hadTokens()).isTrue();
		assertThat(remaining(store.decide(List.of(user, ip)), 0)).as("the user gave back what the refusal took")
			.containsExactly(8);
		assertThat(remaining(store.decide(List.of(ip)), 0)).containsExactly(7);
	}

	@Test
	void reportsExactWaitsFromTheServerSideArithmetic() {
		ManualTimeMeter clock = new ManualTimeMeter();
		RedisRateLimitStore<?> store = connectedStore(clock);
		// 3 tokens a second: one every 333.3 ms
		LimitCheck check = check("3/1s", "alice", 1);
		for (int i = 0; i < 3; i++) {
			store.decide(List.of(check));
		}
		BandwidthResult refused = store.decide(List.of(check)).results().get(0).bandwidths().get(0);
		assertThat(refused).isEqualTo(new BandwidthResult(0, 334, 1000, 334));
		clock.advance(Duration.ofMillis(333));
		assertThat(store.decide(List.of(check)).results().get(0).bandwidths().get(0).millisUntilCost()).isEqualTo(1);
		clock.advance(Duration.ofMillis(1));
		BandwidthResult admitted = store.decide(List.of(check)).results().get(0).bandwidths().get(0);
		assertThat(admitted).isEqualTo(new BandwidthResult(0, 0, 1000, 333));
	}

}
