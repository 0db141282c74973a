package io.github.ratelimit.storage;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Keeps the buckets and decides a whole request in one call. That shape is what lets an implementation
 * make one trip to its backend and keep the no-drain rule: a request is admitted only when every check
 * has its tokens, and a rejected request takes nothing from any bucket.
 * <p>
 * Implementations are thread-safe. A backend that cannot answer throws
 * {@link StoreUnavailableException}; the limiter then applies {@code ratelimit.storage.failure-mode}.
 */
public interface RateLimitStore {

	/**
	 * Decides a request, blocking the calling thread for at most the configured store timeout.
	 * @param checks every bucket the request needs tokens from (not empty)
	 * @return the decision
	 * @throws StoreUnavailableException when the backend is down, slow or broken
	 */
	StoreDecision decide(List<LimitCheck> checks);

	/**
	 * Decides a request without blocking the calling thread. Failures complete the future exceptionally
	 * with {@link StoreUnavailableException}. The default runs {@link #decide} on the caller's thread,
	 * which is right for stores that never block (memory).
	 * @param checks every bucket the request needs tokens from (not empty)
	 * @return the decision
	 */
	default CompletableFuture<StoreDecision> decideAsync(List<LimitCheck> checks) {
		try {
			return CompletableFuture.completedFuture(decide(checks));
		}
		catch (RuntimeException ex) {
			return CompletableFuture.failedFuture(ex);
		}
	}

}
