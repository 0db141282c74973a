package io.github.ratelimit.core;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The waiting slots of one instance ({@code ratelimit.waiting.max-requests}): a request
 * that may wait for its tokens holds one until it knows it need not, or its wait is over,
 * so that no more than the configured number of requests wait at once.
 */
final class WaitingSlots {

	private final int max;

	private final AtomicInteger taken = new AtomicInteger();

	/**
	 * Creates the slots.
	 * @param max the most requests that may wait at once
	 */
	WaitingSlots(int max) {
		this.max = max;
	}

	/** Takes a slot; {@code false} when all are taken (the request must not wait). */
	boolean tryTake() {
		if (this.taken.incrementAndGet() <= this.max) {
			return true;
		}
		this.taken.decrementAndGet();
		return false;
	}

	/** Gives a slot back. */
	void release() {
		this.taken.decrementAndGet();
	}

	/** Gives back the slot a plan holds, if it holds one. */
	void release(RequestPlan plan) {
		if (plan.waitingSlot()) {
			release();
		}
	}

	/** How many requests wait for their tokens now. */
	int count() {
		return this.taken.get();
	}

}
