package io.github.ratelimit.storage;

import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Keeps the buckets and decides a whole request in one call. That shape is what lets an
 * implementation make one trip to its backend and keep the no-drain rule: a request is
 * admitted only when every check has its tokens, and a rejected request takes nothing
 * from any bucket.
 * <p>
 * Implementations are thread-safe. A backend that cannot answer throws
 * {@link StoreUnavailableException}; the limiter then applies
 * {@code ratelimit.storage.failure-mode}.
 */
public interface RateLimitStore {

	/**
	 * Decides a request, blocking the calling thread for at most the configured store
	 * timeout.
	 * @param checks every bucket the request needs tokens from (not empty)
	 * @return the decision
	 * @throws StoreUnavailableException when the backend is down, slow or broken
	 */
	StoreDecision decide(List<LimitCheck> checks);

	/**
	 * Gives back what admitted requests took from buckets: each check's cost goes back to
	 * its token buckets (never above their capacity) and to the count of its quotas'
	 * current period (never below zero); concurrency permits are not touched (their
	 * request releases them). A limit that counts only some responses
	 * ({@link io.github.ratelimit.policy.Policy#counts()}) is given back this way when
	 * the response is not one it counts. A bucket that expired or was evicted since is
	 * left as it is: it is full already.
	 * <p>
	 * Never blocks and never throws: a store that cannot reach its backend drops the
	 * give-back, which leaves the request counted (the strict side).
	 * @param checks the checks of admitted requests whose cost goes back
	 * @throws UnsupportedOperationException when the store cannot give tokens back
	 */
	default void giveBack(List<LimitCheck> checks) {
		throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot give tokens back");
	}

	/**
	 * Reads the state of buckets without taking anything from them, for operators (the
	 * Actuator endpoint). A bucket that does not exist is reported full.
	 * @param checks the buckets to read; each result reports the state the check's cost
	 * would meet
	 * @return one result per check, in order
	 * @throws StoreUnavailableException when the backend cannot answer
	 * @throws UnsupportedOperationException when the store cannot read buckets
	 */
	default List<CheckResult> inspect(List<LimitCheck> checks) {
		throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot read buckets");
	}

	/**
	 * Whether {@link #inspect} reads buckets without taking from them (what the callers'
	 * status endpoint needs); {@code false} unless a store overrides both.
	 */
	default boolean canInspect() {
		return false;
	}

	/**
	 * Forgets buckets, as if they had never been used: they start full. Permits held in
	 * them are forgotten too (their requests' releases then find nothing).
	 * @param checks the buckets
	 * @throws StoreUnavailableException when the backend cannot answer
	 * @throws UnsupportedOperationException when the store cannot forget buckets
	 */
	default void reset(List<LimitCheck> checks) {
		throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot reset buckets");
	}

	/**
	 * Decides a request without blocking the calling thread. Failures complete the future
	 * exceptionally with {@link StoreUnavailableException}. The default runs
	 * {@link #decide} on the caller's thread, which is right for stores that never block
	 * (memory).
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

	/**
	 * A short name of the kind of store, for metrics tags ({@code memory},
	 * {@code redis-script}): the class's simple name unless the store names itself.
	 */
	default String name() {
		String name = getClass().getSimpleName();
		return name.isEmpty() ? "custom" : name;
	}

}
