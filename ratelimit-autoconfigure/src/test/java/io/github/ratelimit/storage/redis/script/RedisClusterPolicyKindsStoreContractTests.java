package io.github.ratelimit.storage.redis.script;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.lettuce.core.cluster.RedisClusterClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInstance;

import io.github.ratelimit.storage.PolicyKindsStoreContractTests;
import io.github.ratelimit.storage.RateLimitStore;
import io.github.ratelimit.storage.redis.connection.CircuitBreaker;
import io.github.ratelimit.storage.redis.connection.RedisConnector;
import io.github.ratelimit.test.redis.RedisClusterProcess;
import io.github.ratelimit.test.redis.RedisServerProcess;

import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

/**
 * The policy kinds in the script store against a real Redis Cluster of three masters
 * started by the test support: a request's keys live in different slots on different
 * nodes, so each slot gets its own script and what admitting slots took is given back
 * when another refuses.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RedisClusterPolicyKindsStoreContractTests extends PolicyKindsStoreContractTests {

	private static final AtomicInteger tests = new AtomicInteger();

	private final AtomicLong time = new AtomicLong();

	private final List<AutoCloseable> resources = new ArrayList<>();

	private RedisClusterProcess cluster;

	private String prefix = "cluster-0:";

	@BeforeAll
	void startCluster() {
		assumeThat(RedisServerProcess.isAvailable()).as("redis-server on the PATH (apt-get install redis-server)")
			.isTrue();
		this.cluster = RedisClusterProcess.shared();
	}

	@BeforeEach
	void keysOfItsOwn() {
		// the cluster lives as long as the class: every test on keys of its own
		this.prefix = "cluster-" + tests.incrementAndGet() + ":";
	}

	@AfterEach
	void closeStores() throws Exception {
		for (int i = this.resources.size() - 1; i >= 0; i--) {
			this.resources.get(i).close();
		}
		this.resources.clear();
	}

	@Override
	protected String storeKeyPrefix() {
		return this.prefix;
	}

	@Override
	protected RateLimitStore newStore() {
		RedisClusterClient client = RedisClusterClient.create(this.cluster.uris());
		this.resources.add(client::shutdown);
		RedisScriptRateLimitStore store = new RedisScriptRateLimitStore(RedisConnector.of(client),
				Duration.ofSeconds(1), new CircuitBreaker(1000, Duration.ofSeconds(1)),
				RedisScriptRateLimitStore.DEFAULT_LEASE_TIME, this.time::get, this.time::get, null);
		this.resources.add(store);
		store.start();
		await().atMost(Duration.ofSeconds(10)).until(store::isConnected);
		return store;
	}

	@Override
	protected void setTime(Instant instant) {
		this.time.set(instant.toEpochMilli());
	}

}
