package io.github.ratelimit.storage.redis;

import java.util.concurrent.CompletableFuture;

import io.github.ratelimit.storage.StoreDecision;

/**
 * A decision sent to Redis and not answered yet.
 */
public interface PendingDecision {

	/**
	 * Completes with Redis's answer, or exceptionally with what Lettuce or Redis
	 * reported.
	 */
	CompletableFuture<StoreDecision> answer();

	/**
	 * Called when the request stopped waiting (too late, or failed): whatever the
	 * decision took, now or when a late answer arrives, is given back, so a request that
	 * got the failure mode leaves no trace.
	 */
	void abandon();

}
