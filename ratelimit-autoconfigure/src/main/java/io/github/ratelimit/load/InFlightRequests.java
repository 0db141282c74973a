package io.github.ratelimit.load;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The requests this instance's rate-limit filters are handling now: one increment when a
 * request enters, one decrement when its response is done, whichever way it ends.
 */
public final class InFlightRequests {

	private final AtomicInteger count = new AtomicInteger();

	/** A request entered. */
	public void enter() {
		this.count.incrementAndGet();
	}

	/** A request's response is done. */
	public void exit() {
		this.count.decrementAndGet();
	}

	/** How many requests are in flight now. */
	public int count() {
		return Math.max(0, this.count.get());
	}

}
