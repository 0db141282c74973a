package io.github.ratelimit.storage.redis.script;

import java.time.Duration;
import java.util.List;

import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.Test;

import io.github.ratelimit.storage.LimitCheck;
import io.github.ratelimit.storage.StoreDecision;
import io.github.ratelimit.storage.redis.RedisRateLimitStore;
import io.github.ratelimit.storage.redis.RedisRateLimitStoreOutageTests;
import io.github.ratelimit.storage.redis.connection.CircuitBreaker;
import io.github.ratelimit.storage.redis.connection.RedisConnector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

/**
 * The {@code script} strategy when Redis goes away, pauses, comes back or forgets its
 * scripts.
 */
class RedisScriptRateLimitStoreOutageTests extends RedisRateLimitStoreOutageTests {

	@Override
	protected RedisRateLimitStore<?> newStore(RedisConnector connector, Duration timeout, CircuitBreaker breaker) {
		return new RedisScriptRateLimitStore(connector, timeout, breaker);
	}

	@Test
	void loadsTheScriptAgainWhenRedisForgotIt() {
		connect(RedisRateLimitStore.DEFAULT_TIMEOUT, new CircuitBreaker());
		LimitCheck check = check("10/1h", "alice");
		assertThat(this.store.decide(List.of(check)).admitted()).isTrue();
		try (StatefulRedisConnection<String, String> admin = this.client.connect()) {
			// as after a restart or a failover: our own server, so flushing its script
			// cache disturbs no one
			admin.sync().scriptFlush();
		}
		assertThat(this.store.decide(List.of(check)).results().get(0).bandwidths().get(0).remaining()).isEqualTo(8);
		assertThat(this.store.decide(List.of(check)).results().get(0).bandwidths().get(0).remaining()).isEqualTo(7);
	}

	@Test
	void releasingPermitsWhileRedisIsDownOrAfterItRestartedNeitherBlocksNorThrows() {
		connect(RedisRateLimitStore.DEFAULT_TIMEOUT, new CircuitBreaker(1000, Duration.ofSeconds(1)));
		LimitCheck cap = check("2 concurrent", "alice");
		StoreDecision first = this.store.decide(List.of(cap));
		StoreDecision second = this.store.decide(List.of(cap));
		assertThat(this.store.decide(List.of(cap)).admitted()).isFalse();

		server.stop();
		assertTimeoutPreemptively(Duration.ofSeconds(1), () -> first.permits().release());
		server.restart();
		assertTimeoutPreemptively(Duration.ofSeconds(1), () -> second.permits().release());

		// the restarted Redis lost the leases: both permits are free, and the late
		// releases took nothing
		await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(20)).until(() -> admits(List.of(cap)));
		assertThat(this.store.decide(List.of(cap)).admitted()).isTrue();
		assertThat(this.store.decide(List.of(cap)).admitted()).isFalse();
	}

	@Test
	void decisionThatTimedOutGivesBackItsPermitAndHoldsNoLease() {
		connect(Duration.ofMillis(100), new CircuitBreaker(1000, Duration.ofSeconds(1)));
		LimitCheck cap = check("1 concurrent", "alice");
		assertThat(admits(List.of(check("10/1h", "warm-up")))).isTrue();
		try (StatefulRedisConnection<String, String> admin = this.client.connect()) {
			admin.sync().clientPause(500);
			// Redis runs the script after the pause, when the request has given up: what
			// it took goes back
			assertThat(admits(List.of(cap))).isFalse();
		}
		// within the 30 s lease: only the give-back frees the permit this soon
		await().atMost(Duration.ofSeconds(5)).pollInterval(Duration.ofMillis(50)).until(() -> admits(List.of(cap)));
		assertThat(((RedisScriptRateLimitStore) this.store).leases().size()).as("the admitted request's lease only")
			.isOne();
	}

	@Test
	void anOperatorsReadWaitsOutAShortSilenceAndNeverOpensTheBreaker() {
		// a breaker that one failure would open, and the request path's short timeout
		CircuitBreaker breaker = new CircuitBreaker(1, Duration.ofSeconds(1));
		connect(Duration.ofMillis(100), breaker);
		LimitCheck check = check("10/1h", "alice");
		assertThat(this.store.decide(List.of(check)).admitted()).isTrue();
		try (StatefulRedisConnection<String, String> admin = this.client.connect()) {
			admin.sync().clientPause(1000);
			// the read waits (up to OPERATOR_TIMEOUT, 5 s) rather than failing after the
			// decisions' 100 ms
			assertThat(this.store.inspect(List.of(check)).get(0).bandwidths().get(0).remaining()).isEqualTo(9);
		}
		assertThat(breaker.state()).as("operators are no business of the breaker")
			.isEqualTo(CircuitBreaker.State.CLOSED);
	}

}
