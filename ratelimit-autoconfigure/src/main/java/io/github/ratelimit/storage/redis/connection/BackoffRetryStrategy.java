package io.github.ratelimit.storage.redis.connection;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

import io.github.bucket4j.distributed.proxy.RetryDecision;
import io.github.bucket4j.distributed.proxy.RetryStrategy;

/**
 * When a compare-and-swap loses to another instance writing the same bucket: retry at
 * once (the winner's state is there to read), then back off with jitter so the contenders
 * interleave instead of colliding again, and give up after a bounded number of attempts.
 * Bucket4j also cuts any delay to the remaining request timeout, so retries never outlive
 * the store's budget.
 */
public final class BackoffRetryStrategy implements RetryStrategy {

	private static final long BASE_DELAY_NANOS = Duration.ofMillis(1).toNanos() / 4;

	private static final long MAX_DELAY_NANOS = Duration.ofMillis(5).toNanos();

	private final int maxAttempts;

	public BackoffRetryStrategy(int maxAttempts) {
		this.maxAttempts = maxAttempts;
	}

	@Override
	public RetryDecision shouldRetry(RetryMetadata metadata) {
		int attempt = metadata.getAttemptNumber();
		if (attempt >= this.maxAttempts) {
			return RetryDecision.stop();
		}
		if (attempt <= 1) {
			return RetryDecision.retryImmediately();
		}
		long ceiling = Math.min(MAX_DELAY_NANOS, BASE_DELAY_NANOS << Math.min(attempt - 2, 16));
		long delay = ThreadLocalRandom.current().nextLong(ceiling / 2, ceiling + 1);
		return RetryDecision.retryAfter(Duration.ofNanos(delay));
	}

}
