package io.github.ratelimit.storage.redis.script;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.ToIntFunction;

import io.lettuce.core.RedisClient;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanIterator;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.TestInfo;

import io.github.ratelimit.storage.PolicyKindsStoreContractTests;
import io.github.ratelimit.storage.RateLimitStore;
import io.github.ratelimit.storage.redis.connection.CircuitBreaker;
import io.github.ratelimit.storage.redis.connection.RedisConnector;
import io.github.ratelimit.test.redis.RedisTestServer;

import static org.awaitility.Awaitility.await;

/**
 * Calendar quotas, concurrency caps, waiting and observed checks in the script store,
 * against a real Redis: the script runs on the time the test sets, and quotas name their
 * periods by it too.
 */
class RedisScriptPolicyKindsStoreContractTests extends PolicyKindsStoreContractTests {

	private final AtomicLong time = new AtomicLong();

	private final List<AutoCloseable> resources = new ArrayList<>();

	private String prefix;

	private RedisCommands<String, String> redis;

	@BeforeEach
	void connect(TestInfo test) {
		this.prefix = RedisTestServer.uniqueKeyPrefix(test.getTestMethod().orElseThrow().getName());
		RedisClient client = client();
		StatefulRedisConnection<String, String> connection = client.connect();
		this.resources.add(connection);
		this.redis = connection.sync();
	}

	@AfterEach
	void tearDown() throws Exception {
		// our keys only: the server may be shared, so it is never flushed
		List<String> keys = new ArrayList<>();
		ScanIterator.scan(this.redis, ScanArgs.Builder.matches(this.prefix + "*").limit(1000))
			.forEachRemaining(keys::add);
		keys.forEach(this.redis::del);
		for (int i = this.resources.size() - 1; i >= 0; i--) {
			this.resources.get(i).close();
		}
	}

	@Override
	protected RateLimitStore newStore() {
		// a generous timeout: these tests are about what is decided, not how fast (a
		// first call loads zone rules)
		RedisScriptRateLimitStore store = new RedisScriptRateLimitStore(RedisConnector.of(client()),
				Duration.ofSeconds(1), new CircuitBreaker(1000, Duration.ofSeconds(1)),
				RedisScriptRateLimitStore.DEFAULT_LEASE_TIME, this.time::get, this.time::get, slots());
		this.resources.add(store);
		store.start();
		await().atMost(Duration.ofSeconds(10)).until(store::isConnected);
		return store;
	}

	/**
	 * How keys are grouped into Cluster slots, or {@code null} for standalone Redis (one
	 * call per request).
	 */
	@Nullable ToIntFunction<byte[]> slots() {
		return null;
	}

	@Override
	protected void setTime(Instant instant) {
		this.time.set(instant.toEpochMilli());
	}

	@Override
	protected String storeKeyPrefix() {
		return this.prefix;
	}

	private RedisClient client() {
		RedisClient client = RedisClient.create(RedisTestServer.url());
		this.resources.add(client::shutdown);
		return client;
	}

}
