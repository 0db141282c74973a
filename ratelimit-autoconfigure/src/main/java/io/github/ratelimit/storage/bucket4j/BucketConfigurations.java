package io.github.ratelimit.storage.bucket4j;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.ConfigurationBuilder;

import io.github.ratelimit.policy.Bandwidth;
import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.policy.TokenBucket;

/**
 * Bucket4j configurations of policies, built once per policy. Shared by the
 * Bucket4j-based stores.
 */
public final class BucketConfigurations {

	private final Map<Policy, BucketConfiguration> configurations = new ConcurrentHashMap<>();

	private final Map<Policy, Long> idleNanos = new ConcurrentHashMap<>();

	/**
	 * The Bucket4j configuration for a policy's limit (bandwidths in the limit's order).
	 */
	public BucketConfiguration of(Policy policy) {
		BucketConfiguration configuration = this.configurations.get(policy);
		return (configuration != null) ? configuration
				: this.configurations.computeIfAbsent(policy, BucketConfigurations::build);
	}

	private static BucketConfiguration build(Policy policy) {
		ConfigurationBuilder builder = BucketConfiguration.builder();
		for (Bandwidth item : policy.limit().bandwidths()) {
			TokenBucket bandwidth = tokenBucket(item);
			builder.addLimit((limit) -> limit.capacity(bandwidth.capacity())
				.refillGreedy(bandwidth.refillTokens(), bandwidth.period()));
		}
		return builder.build();
	}

	/**
	 * The item as a token bucket: Bucket4j stores decide token buckets only, and their
	 * auto-configuration refuses to start with quotas or concurrency caps configured.
	 */
	public static TokenBucket tokenBucket(Bandwidth bandwidth) {
		if (bandwidth instanceof TokenBucket bucket) {
			return bucket;
		}
		throw new IllegalArgumentException("Bucket4j buckets decide token buckets only, not " + bandwidth);
	}

	/** {@link #timeToFull(Policy)} in nanoseconds, computed once per policy. */
	public long idleNanos(Policy policy) {
		return this.idleNanos.computeIfAbsent(policy, (key) -> timeToFull(key).toNanos());
	}

	/**
	 * How long an untouched bucket of this policy takes to be full again: after that,
	 * forgetting it changes nothing, so it is how long stores keep idle buckets.
	 */
	public static Duration timeToFull(Policy policy) {
		long millis = 0;
		for (Bandwidth item : policy.limit().bandwidths()) {
			TokenBucket bandwidth = tokenBucket(item);
			millis = Math.max(millis, bandwidth.millisToRefill(bandwidth.capacity()));
		}
		return Duration.ofMillis(Math.max(1, millis));
	}

}
