package io.github.ratelimit.web;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

import io.github.ratelimit.storage.LimitCheck;
import io.github.ratelimit.storage.Permits;
import io.github.ratelimit.storage.RateLimitStore;
import io.github.ratelimit.storage.StoreDecision;

/**
 * A store that counts the concurrency permits the requests hold, around another store:
 * every release is counted, so a permit given back twice shows as much as one never given
 * back.
 * <p>
 * For tests of the web filters alone it can also {@linkplain #grantingPermits() hand out
 * a permit} and a {@linkplain #answeringWait(long) wait} with every admitted decision,
 * whatever the store beneath does, and {@linkplain #pauseDecisions() hold the
 * asynchronous decisions} until the test lets them go.
 */
public final class PermitLedger implements RateLimitStore {

	private final RateLimitStore delegate;

	private final AtomicInteger taken = new AtomicInteger();

	private final AtomicInteger releases = new AtomicInteger();

	private final AtomicInteger givenBack = new AtomicInteger();

	private volatile boolean granting;

	private volatile long waitMillis;

	private volatile CompletableFuture<Void> decisions = CompletableFuture.completedFuture(null);

	public PermitLedger(RateLimitStore delegate) {
		this.delegate = delegate;
	}

	/** Every admitted decision also holds a permit of the ledger's own. */
	public PermitLedger grantingPermits() {
		this.granting = true;
		return this;
	}

	/**
	 * Every admitted decision says to wait this long (the group needs a
	 * {@code max-wait}).
	 */
	public PermitLedger answeringWait(long waitMillis) {
		this.waitMillis = waitMillis;
		return this;
	}

	/** Asynchronous decisions complete only once {@link #resumeDecisions()} is called. */
	public void pauseDecisions() {
		this.decisions = new CompletableFuture<>();
	}

	/**
	 * Completes the asynchronous decisions held back, on this thread, as a store's I/O
	 * thread would.
	 */
	public void resumeDecisions() {
		this.decisions.complete(null);
	}

	@Override
	public StoreDecision decide(List<LimitCheck> checks) {
		return counted(this.delegate.decide(checks));
	}

	@Override
	public CompletableFuture<StoreDecision> decideAsync(List<LimitCheck> checks) {
		// the delegate's own asynchronous path: a Redis store must not block an event
		// loop here
		return this.decisions.thenCompose((ready) -> this.delegate.decideAsync(checks)).thenApply(this::counted);
	}

	private StoreDecision counted(StoreDecision decision) {
		if (!decision.admitted()) {
			return decision;
		}
		Permits permits = this.granting ? Permits.NONE : decision.permits();
		if (!this.granting && permits == Permits.NONE) {
			return decision;
		}
		this.taken.incrementAndGet();
		Permits counted = () -> {
			this.releases.incrementAndGet();
			permits.release();
		};
		long wait = (this.waitMillis > 0) ? this.waitMillis : decision.waitMillis();
		return new StoreDecision(true, decision.results(), wait, counted);
	}

	@Override
	public void giveBack(List<LimitCheck> checks) {
		this.givenBack.addAndGet(checks.size());
		this.delegate.giveBack(checks);
	}

	/**
	 * Checks whose tokens were given back so far (limits that do not count a response's
	 * status).
	 */
	public int givenBack() {
		return this.givenBack.get();
	}

	/** Permits taken and not given back (negative when some were given back twice). */
	public int held() {
		return this.taken.get() - this.releases.get();
	}

	/** Permits taken so far. */
	public int taken() {
		return this.taken.get();
	}

	/** Releases so far, each call counted. */
	public int releases() {
		return this.releases.get();
	}

}
