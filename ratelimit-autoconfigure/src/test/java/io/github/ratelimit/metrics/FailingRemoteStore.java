package io.github.ratelimit.metrics;

import java.util.List;

import io.github.ratelimit.storage.LimitCheck;
import io.github.ratelimit.storage.RateLimitStore;
import io.github.ratelimit.storage.RemoteStore;
import io.github.ratelimit.storage.StoreDecision;
import io.github.ratelimit.storage.StoreUnavailableException;

/**
 * A remote store as the metrics see one (a circuit breaker to show), deciding in memory
 * until it is told to fail: then every decision times out.
 */
final class FailingRemoteStore implements RateLimitStore, RemoteStore {

	private final RateLimitStore delegate;

	private volatile boolean failing;

	FailingRemoteStore(RateLimitStore delegate) {
		this.delegate = delegate;
	}

	/** From now on, every decision times out and the circuit is open. */
	void fail() {
		this.failing = true;
	}

	@Override
	public StoreDecision decide(List<LimitCheck> checks) {
		if (this.failing) {
			throw new StoreUnavailableException(StoreUnavailableException.Kind.TIMEOUT, "silent", null);
		}
		return this.delegate.decide(checks);
	}

	@Override
	public boolean isConnected() {
		return !this.failing;
	}

	@Override
	public Circuit circuit() {
		return this.failing ? Circuit.OPEN : Circuit.CLOSED;
	}

	@Override
	public String name() {
		return "redis-script";
	}

}
