package io.github.ratelimit.storage.redis.script;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.function.ToIntFunction;

import io.lettuce.core.RedisClient;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanIterator;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import org.jspecify.annotations.Nullable;

import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.LimitParser;
import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.storage.LimitCheck;
import io.github.ratelimit.storage.StoreKeys;
import io.github.ratelimit.storage.redis.connection.CircuitBreaker;
import io.github.ratelimit.storage.redis.connection.RedisConnector;
import io.github.ratelimit.test.redis.RedisTestServer;

import static org.awaitility.Awaitility.await;

/**
 * Script stores on the tests' Redis ({@link RedisTestServer}) under a key prefix of one
 * test, and a plain connection to look at their keys; closing deletes those keys (the
 * server is never flushed).
 */
final class ScriptStores implements AutoCloseable {

	private final List<AutoCloseable> resources = new ArrayList<>();

	private final String prefix;

	private final String url;

	private final RedisCommands<String, String> redis;

	ScriptStores(String testName) {
		this(RedisTestServer.url(), testName);
	}

	ScriptStores(String url, String testName) {
		this.url = url;
		this.prefix = RedisTestServer.uniqueKeyPrefix(testName);
		StatefulRedisConnection<String, String> connection = client().connect();
		this.resources.add(connection);
		this.redis = connection.sync();
	}

	/**
	 * A connected store on the script clock {@code clock} (null: Redis's) and wall clock
	 * {@code wallClock}.
	 */
	RedisScriptRateLimitStore connected(Duration leaseTime, @Nullable LongSupplier clock,
			@Nullable LongSupplier wallClock, @Nullable ToIntFunction<byte[]> slots) {
		// a generous timeout: these tests are about what is decided, not how fast
		RedisScriptRateLimitStore store = new RedisScriptRateLimitStore(RedisConnector.of(client()),
				Duration.ofSeconds(1), new CircuitBreaker(1000, Duration.ofSeconds(1)), leaseTime, clock, wallClock,
				slots);
		this.resources.add(store);
		store.start();
		await().atMost(Duration.ofSeconds(10)).until(store::isConnected);
		return store;
	}

	RedisScriptRateLimitStore connected(Duration leaseTime, @Nullable LongSupplier clock) {
		return connected(leaseTime, clock, clock, null);
	}

	/** The prefix of this test's keys. */
	String prefix() {
		return this.prefix;
	}

	/** The key layout of this test's stores: keys under its prefix. */
	StoreKeys keys() {
		return new StoreKeys(this.prefix);
	}

	/** A plain connection to the server. */
	RedisCommands<String, String> redis() {
		return this.redis;
	}

	Policy policy(String limit) {
		return policy(Dimension.USER, limit);
	}

	Policy policy(Dimension dimension, String limit) {
		return new Policy("test", dimension, "default", LimitParser.parse(limit));
	}

	LimitCheck check(Policy policy, String id) {
		return LimitCheck.enforced(policy, new StoreKeys(this.prefix).key(policy, id), 1);
	}

	private RedisClient client() {
		RedisClient client = RedisClient.create(this.url);
		this.resources.add(client::shutdown);
		return client;
	}

	@Override
	public void close() throws Exception {
		try {
			List<String> keys = new ArrayList<>();
			ScanIterator.scan(this.redis, ScanArgs.Builder.matches(this.prefix + "*").limit(1000))
				.forEachRemaining(keys::add);
			keys.forEach(this.redis::del);
		}
		catch (RuntimeException ex) {
			// the server may be down (outage tests); its data is gone then anyway
		}
		for (int i = this.resources.size() - 1; i >= 0; i--) {
			this.resources.get(i).close();
		}
	}

}
