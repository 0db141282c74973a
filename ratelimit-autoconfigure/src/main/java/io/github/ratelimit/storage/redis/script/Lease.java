package io.github.ratelimit.storage.redis.script;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import io.github.ratelimit.storage.Permits;

/**
 * The concurrency permits one admitted request holds in Redis: a lease on the cap of each
 * of its buckets that gave one, renewed by the {@link LeaseKeeper} until released.
 * Released at most once; releasing never blocks or throws (a release that does not reach
 * Redis lets the lease run out).
 */
final class Lease implements Permits {

	private final LeaseKeeper keeper;

	private final List<Held> held;

	private final AtomicBoolean done = new AtomicBoolean();

	Lease(LeaseKeeper keeper, List<Held> held) {
		this.keeper = keeper;
		this.held = List.copyOf(held);
	}

	/** The leased permits, one per bucket. */
	List<Held> held() {
		return this.held;
	}

	@Override
	public void release() {
		if (this.done.compareAndSet(false, true)) {
			this.keeper.release(this);
		}
	}

	/**
	 * Stops renewing without a release: the decision was given back (refunded) already.
	 */
	void forget() {
		if (this.done.compareAndSet(false, true)) {
			this.keeper.forget(this);
		}
	}

	/**
	 * A permit leased on one bucket.
	 *
	 * @param key the bucket's key
	 * @param leaseId the id the permit is leased under (the request's)
	 * @param permits the permits of the bucket's cap, so the script knows where to look
	 */
	record Held(byte[] key, byte[] leaseId, long permits) {
	}

}
