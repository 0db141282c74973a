package io.github.ratelimit.behaviour;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Holds the lifecycle app's {@code /capped/hold} requests in their handler until the test
 * opens it, and counts how many are held, so a test knows when requests are in flight.
 */
final class LifecycleGate {

	private volatile CompletableFuture<Void> gate = new CompletableFuture<>();

	private final AtomicInteger holding = new AtomicInteger();

	/** What a handler waits for; it must not cancel it. */
	CompletableFuture<Void> closed() {
		return this.gate;
	}

	/** A request entered the handler. */
	void entered() {
		this.holding.incrementAndGet();
	}

	/** A request left the handler, whichever way. */
	void left() {
		this.holding.decrementAndGet();
	}

	/** How many requests are in the handler now. */
	int holding() {
		return this.holding.get();
	}

	/** Lets every request held go on; later requests are held again. */
	void open() {
		CompletableFuture<Void> opened = this.gate;
		this.gate = new CompletableFuture<>();
		opened.complete(null);
	}

}
