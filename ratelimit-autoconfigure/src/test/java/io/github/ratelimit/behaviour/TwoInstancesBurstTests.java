package io.github.ratelimit.behaviour;

import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import io.github.ratelimit.storage.redis.RedisRateLimitStore;
import io.github.ratelimit.storage.redis.connection.CircuitBreaker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

/**
 * A burst is not an outage: two instances of an app with the default settings share one
 * Redis, and 500 requests arrive at once on one budget. Exactly the limit is admitted,
 * the rest refused, nothing fails and the circuit breaker stays closed. Run on each web
 * stack.
 */
abstract class TwoInstancesBurstTests {

	private static final int REQUESTS = 500;

	private static final int USERS = 20;

	private final Stack stack;

	private BehaviourApp first;

	private BehaviourApp second;

	TwoInstancesBurstTests(Stack stack) {
		this.stack = stack;
	}

	@AfterEach
	void stopApps() {
		if (this.first != null) {
			this.first.close();
		}
		if (this.second != null) {
			this.second.close();
		}
	}

	@Test
	void oneClientAddressGetsExactlyItsLimit() {
		startApps(Map.of());
		// anonymous callers have 50 an hour on /api/burst (application-behaviour.yml)
		ConcurrentLoad load = ConcurrentLoad.run(REQUESTS,
				(i) -> () -> Http.send(port(i), "GET", "/api/burst", "X-Forwarded-For", "198.51.100.7").status());
		System.out.println(load.report(this.stack + " two instances, one address"));
		assertThat(load.statuses()).containsOnly(entry(200, 50L), entry(429, (long) REQUESTS - 50));
		assertBreakersClosed();
	}

	@Test
	void oneOrganisationGetsExactlyItsBudgetWhateverTheNumberOfUsers() {
		Map<String, String> crowd = new LinkedHashMap<>();
		for (int u = 0; u < USERS; u++) {
			crowd.put("ratelimit.identity.api-keys[" + u + "].key", "crowd-key-" + u);
			crowd.put("ratelimit.identity.api-keys[" + u + "].user", "crowd-user-" + u);
			crowd.put("ratelimit.identity.api-keys[" + u + "].org", "crowd");
			crowd.put("ratelimit.identity.api-keys[" + u + "].tier", "crowd");
		}
		crowd.put("ratelimit.tiers.crowd.org.burst", "50/1h");
		crowd.put("ratelimit.tiers.crowd.user.burst", "1000/1h");
		startApps(crowd);
		ConcurrentLoad load = ConcurrentLoad.run(REQUESTS,
				(i) -> () -> Http
					.send(port(i), "GET", "/api/burst", "X-Forwarded-For", "198.51.100." + (10 + i % USERS),
							"X-API-Key", "crowd-key-" + (i % USERS))
					.status());
		System.out.println(load.report(this.stack + " two instances, one org, " + USERS + " users"));
		assertThat(load.statuses()).containsOnly(entry(200, 50L), entry(429, (long) REQUESTS - 50));
		assertBreakersClosed();
	}

	private void startApps(Map<String, String> extra) {
		// one key prefix for both: they share every bucket, as two instances of one app
		// do
		Map<String, String> properties = new LinkedHashMap<>(Storage.REDIS.properties(getClass().getSimpleName()));
		properties.putAll(extra);
		this.first = BehaviourApp.start(this.stack, properties).awaitStoreConnected();
		this.second = BehaviourApp.start(this.stack, properties).awaitStoreConnected();
	}

	private int port(int request) {
		return ((request % 2 == 0) ? this.first : this.second).port();
	}

	private void assertBreakersClosed() {
		for (BehaviourApp app : new BehaviourApp[] { this.first, this.second }) {
			assertThat(app.context().getBean(RedisRateLimitStore.class).circuitBreaker().state())
				.isEqualTo(CircuitBreaker.State.CLOSED);
			// closed is not enough: fewer failures than the threshold leave it closed
			assertThat(app.failureModeDecisions()).as("decisions that got the failure mode").isZero();
		}
	}

}
