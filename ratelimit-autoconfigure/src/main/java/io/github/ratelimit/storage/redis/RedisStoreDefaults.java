package io.github.ratelimit.storage.redis;

import java.time.Duration;

/**
 * Defaults of the Redis stores, in a class that loads without a Redis client on the class
 * path: configuration properties take their defaults from here.
 */
public final class RedisStoreDefaults {

	/**
	 * How long Redis may stay silent before it counts as down; see
	 * {@link RedisRateLimitStore#DEFAULT_TIMEOUT}.
	 */
	public static final Duration TIMEOUT = Duration.ofSeconds(1);

	/** How long a concurrency permit stays leased unless renewed. */
	public static final Duration LEASE_TIME = Duration.ofSeconds(30);

	private RedisStoreDefaults() {
	}

}
