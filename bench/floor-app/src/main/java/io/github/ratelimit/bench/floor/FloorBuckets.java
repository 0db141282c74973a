package io.github.ratelimit.bench.floor;

import java.time.Duration;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.github.bucket4j.Bucket;

/**
 * The buckets of {@code floor.mode=memory}: Bucket4j local buckets (its default, lock-free
 * synchronization) in a Caffeine map bounded by size and idle time, what a hand-written
 * in-memory limiter would keep. One token per take.
 */
final class FloorBuckets {

	private final Cache<String, Bucket> buckets = Caffeine.newBuilder()
		.maximumSize(1_000_000)
		.expireAfterAccess(Duration.ofHours(1))
		.build();

	private final long capacity;

	private final Duration period;

	FloorBuckets(long capacity, long periodMillis) {
		this.capacity = capacity;
		this.period = Duration.ofMillis(periodMillis);
	}

	boolean take(String key) {
		return this.buckets.get(key, this::newBucket).tryConsume(1);
	}

	private Bucket newBucket(String key) {
		return Bucket.builder()
			.addLimit((limit) -> limit.capacity(this.capacity).refillGreedy(this.capacity, this.period))
			.build();
	}

}
