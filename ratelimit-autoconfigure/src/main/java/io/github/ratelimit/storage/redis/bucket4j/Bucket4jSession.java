package io.github.ratelimit.storage.redis.bucket4j;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.distributed.AsyncBucketProxy;
import io.github.bucket4j.distributed.proxy.AsyncProxyManager;
import io.github.bucket4j.distributed.proxy.optimization.Optimizations;
import io.lettuce.core.api.StatefulConnection;

import io.github.ratelimit.storage.LimitCheck;
import io.github.ratelimit.storage.StoreKeys;
import io.github.ratelimit.storage.bucket4j.BucketConfigurations;
import io.github.ratelimit.storage.redis.connection.RedisSession;

/**
 * One connection and the Bucket4j state built on it: the proxy manager and a bounded
 * cache of bucket proxies. A proxy is reused for its key so that Bucket4j's batching can
 * merge concurrent requests on a hot key into one compare-and-swap instead of letting
 * them collide; a proxy holds no bucket state, so evicting one costs nothing but the
 * batching of that key.
 */
final class Bucket4jSession implements RedisSession {

	private static final Duration IDLE_PROXY_LIFETIME = Duration.ofMinutes(5);

	private final StatefulConnection<byte[], byte[]> connection;

	private final AsyncProxyManager<byte[]> proxyManager;

	private final BucketConfigurations configurations;

	private final Cache<String, AsyncBucketProxy> buckets;

	Bucket4jSession(StatefulConnection<byte[], byte[]> connection, AsyncProxyManager<byte[]> proxyManager,
			BucketConfigurations configurations, long maxCachedBuckets) {
		this.connection = connection;
		this.proxyManager = proxyManager;
		this.configurations = configurations;
		// upkeep on the calling thread, as for the in-memory buckets (BucketPartitions)
		this.buckets = Caffeine.newBuilder()
			.executor(Runnable::run)
			.maximumSize(maxCachedBuckets)
			.expireAfterAccess(IDLE_PROXY_LIFETIME)
			.build();
	}

	@Override
	public boolean isOpen() {
		return this.connection.isOpen();
	}

	/**
	 * The proxy of the bucket a check takes tokens from. Bucket4j keeps the configuration
	 * a bucket was created with in Redis and would go on applying it after the limit
	 * changed, so each exact limit has a bucket of its own here: a changed limit starts
	 * with a full bucket on this strategy.
	 */
	AsyncBucketProxy bucket(LimitCheck check) {
		String key = key(check);
		AsyncBucketProxy bucket = this.buckets.getIfPresent(key);
		return (bucket != null) ? bucket : this.buckets.get(key, (k) -> newBucket(k, check));
	}

	/** The key of a check's bucket: one per exact limit. */
	static String key(LimitCheck check) {
		return check.key() + "~" + StoreKeys.limitFingerprint(check.policy());
	}

	private AsyncBucketProxy newBucket(String key, LimitCheck check) {
		// asked for only when the key is missing in Redis (new or expired bucket)
		CompletableFuture<BucketConfiguration> configuration = CompletableFuture
			.completedFuture(this.configurations.of(check.policy()));
		return this.proxyManager.builder()
			.withOptimization(Optimizations.batching())
			.build(key.getBytes(StandardCharsets.UTF_8), () -> configuration);
	}

	@Override
	public java.util.concurrent.CompletableFuture<?> delete(byte[] key) {
		this.buckets.invalidate(new String(key, StandardCharsets.UTF_8));
		StatefulConnection<byte[], byte[]> open = this.connection;
		io.lettuce.core.RedisFuture<Long> deleted = (open instanceof io.lettuce.core.cluster.api.StatefulRedisClusterConnection<byte[], byte[]> cluster)
				? cluster.async().del(key)
				: ((io.lettuce.core.api.StatefulRedisConnection<byte[], byte[]>) open).async().del(key);
		return deleted.toCompletableFuture();
	}

	@Override
	public void close() {
		this.buckets.invalidateAll();
		this.connection.close();
	}

}
