package io.github.ratelimit.behaviour;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import reactor.core.publisher.Mono;

/**
 * Holds handlers ({@link MvcHeldEndpoints}, {@link WebFluxHeldEndpoints}) after their
 * response is complete on the wire until the test lets them go: the client has the
 * response while its request is still running, so nothing that happens when the request
 * ends has happened yet.
 */
class HeldResponses {

	/** The body of a held response, sent with its {@code Content-Length}. */
	static final byte[] BODY = "held".getBytes(StandardCharsets.US_ASCII);

	private final AtomicInteger holding = new AtomicInteger();

	private volatile CompletableFuture<Void> release = new CompletableFuture<>();

	/** A handler is about to send its response and wait. */
	void enter() {
		this.holding.incrementAndGet();
	}

	/**
	 * Blocks the calling (servlet) thread until {@link #release()}; 30 s at most, so that
	 * a failed test does not hang.
	 */
	void awaitRelease() {
		try {
			this.release.get(30, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		catch (ExecutionException | TimeoutException ex) {
			// released all the same
		}
	}

	/** Completes on {@link #release()}. */
	Mono<Void> released() {
		return Mono.fromFuture(this.release, true).timeout(Duration.ofSeconds(30), Mono.empty());
	}

	/** The handler's request goes on to its end. */
	void leave() {
		this.holding.decrementAndGet();
	}

	/** Handlers that sent their response and are still running. */
	int holding() {
		return this.holding.get();
	}

	/** Lets the held handlers go; later ones are held again. */
	void release() {
		CompletableFuture<Void> released = this.release;
		this.release = new CompletableFuture<>();
		released.complete(null);
	}

}
