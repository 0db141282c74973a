package io.github.ratelimit.core;

import java.util.concurrent.atomic.AtomicBoolean;

import io.github.ratelimit.storage.Permits;

/**
 * What an admitted request must give back, and when: the waiting slot it holds while it waits for its
 * tokens ({@link #waitOver()}), and its concurrency permits once its response is done
 * ({@link #responseDone()}: completed, failed, timed out, aborted or cancelled). The web filters call
 * both; each runs once however often it is called, and {@link #responseDone()} also ends the wait.
 */
public final class Completion {

	/** For requests that hold nothing. */
	public static final Completion NONE = new Completion(Permits.NONE, null);

	private final Permits permits;

	private final Runnable endWait;

	private final AtomicBoolean waiting;

	private final AtomicBoolean holding;

	Completion(Permits permits, Runnable endWait) {
		this.permits = permits;
		this.endWait = endWait;
		this.waiting = new AtomicBoolean(endWait != null);
		this.holding = new AtomicBoolean(permits != Permits.NONE);
	}

	/** The request has waited for its tokens (or gave up waiting): frees its waiting slot. */
	public void waitOver() {
		if (this.waiting.get() && this.waiting.compareAndSet(true, false)) {
			this.endWait.run();
		}
	}

	/** The response is done, whichever way: gives the permits back. */
	public void responseDone() {
		waitOver();
		if (this.holding.get() && this.holding.compareAndSet(true, false)) {
			this.permits.release();
		}
	}

}
