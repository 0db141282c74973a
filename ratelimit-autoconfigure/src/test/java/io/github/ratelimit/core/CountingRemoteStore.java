package io.github.ratelimit.core;

import java.util.List;

import io.github.ratelimit.storage.LimitCheck;
import io.github.ratelimit.storage.RateLimitStore;
import io.github.ratelimit.storage.RemoteStore;
import io.github.ratelimit.storage.StoreDecision;

/**
 * A store in memory that passes for a remote one (what the limiter keeps local state
 * for), counting the decisions asked of it.
 */
final class CountingRemoteStore implements RateLimitStore, RemoteStore {

	private final RateLimitStore delegate;

	int calls;

	int giveBacks;

	CountingRemoteStore(RateLimitStore delegate) {
		this.delegate = delegate;
	}

	@Override
	public StoreDecision decide(List<LimitCheck> checks) {
		this.calls++;
		return this.delegate.decide(checks);
	}

	@Override
	public void giveBack(List<LimitCheck> checks) {
		this.giveBacks++;
		this.delegate.giveBack(checks);
	}

	@Override
	public void reset(List<LimitCheck> checks) {
		this.delegate.reset(checks);
	}

	@Override
	public boolean isConnected() {
		return true;
	}

	@Override
	public Circuit circuit() {
		return Circuit.CLOSED;
	}

}
