package io.github.ratelimit.core;

import java.util.concurrent.atomic.AtomicBoolean;

import org.jspecify.annotations.Nullable;

import io.github.ratelimit.storage.Permits;

/**
 * What an admitted request must give back, and when: the waiting slot it holds while it
 * waits for its tokens ({@link #waitOver()}), its concurrency permits once its response
 * is done ({@link #responseDone(int)}: completed, failed, timed out, aborted or
 * cancelled), and the tokens it took from limits that count only some responses when its
 * final status is not one of them, as soon as the response commits with that status
 * ({@link #responseCommitted(int)}) or else when it is done. The web filters call them;
 * each runs once however often it is called, and {@link #responseDone(int)} also ends the
 * wait.
 */
public final class Completion {

	/** For requests that hold nothing. */
	public static final Completion NONE = new Completion(Permits.NONE, null);

	/**
	 * The final status is not known (the request timed out, the client went away, the
	 * exchange was cancelled): the request may have reached the application, so it stays
	 * counted by every limit.
	 */
	public static final int UNKNOWN = 0;

	/** The request never reached the application: no limit counts it. */
	public static final int NOT_RUN = -1;

	private final Permits permits;

	private final @Nullable Runnable endWait;

	private final AtomicBoolean waiting;

	private final AtomicBoolean holding;

	private final @Nullable OutcomeReservation reservation;

	private final AtomicBoolean reserving;

	Completion(Permits permits, @Nullable Runnable endWait) {
		this(permits, endWait, null);
	}

	Completion(Permits permits, @Nullable Runnable endWait, @Nullable OutcomeReservation reservation) {
		this.permits = permits;
		this.endWait = endWait;
		this.waiting = new AtomicBoolean(endWait != null);
		this.holding = new AtomicBoolean(permits != Permits.NONE);
		this.reservation = reservation;
		this.reserving = new AtomicBoolean(reservation != null);
	}

	/**
	 * Whether the request took tokens that its final status may give back: the adapters
	 * then report that status through {@link #responseDone(int)}.
	 */
	public boolean countsByOutcome() {
		return this.reservation != null;
	}

	/**
	 * The request has waited for its tokens (or gave up waiting): frees its waiting slot.
	 */
	public void waitOver() {
		if (this.waiting.get() && this.waiting.compareAndSet(true, false)) {
			this.endWait.run();
		}
	}

	/**
	 * The response commits with this status, its final one, before any of it reaches the
	 * client: gives back the tokens of limits that do not count it, so a client that
	 * sends its next request as soon as it has the response finds them there. Settles
	 * once, whichever comes first of this and {@link #responseDone(int)}; the waiting
	 * slot and the permits stay held until the response is done.
	 * @param status the status the response commits with
	 */
	public void responseCommitted(int status) {
		if (this.reserving.get() && this.reserving.compareAndSet(true, false)) {
			this.reservation.settle(status);
		}
	}

	/**
	 * The response is done and its final status is not known: gives the permits back;
	 * limits that count only some responses keep counting it.
	 */
	public void responseDone() {
		responseDone(UNKNOWN);
	}

	/**
	 * The response is done: gives the permits back, and the tokens of limits that do not
	 * count this status unless {@link #responseCommitted(int)} settled them already.
	 * @param status the final HTTP status, {@link #UNKNOWN} or {@link #NOT_RUN}
	 */
	public void responseDone(int status) {
		waitOver();
		if (this.holding.get() && this.holding.compareAndSet(true, false)) {
			this.permits.release();
		}
		if (this.reserving.get() && this.reserving.compareAndSet(true, false)) {
			this.reservation.settle(status);
		}
	}

}
