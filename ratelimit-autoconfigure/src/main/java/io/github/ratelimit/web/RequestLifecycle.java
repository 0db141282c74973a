package io.github.ratelimit.web;

import java.util.concurrent.atomic.AtomicReference;

import org.jspecify.annotations.Nullable;

import io.github.ratelimit.core.Completion;
import io.github.ratelimit.core.Decision;
import io.github.ratelimit.load.InFlightRequests;

/**
 * What one request holds from its decision until its response is done, for both web
 * adapters: they report the decision, the end of its wait, the commit of the response and
 * the end of the response with its final status, and this gives back the waiting slot,
 * the concurrency permits and the tokens of limits that do not count that status exactly
 * once, whichever way the request ends. The tokens go back when the response commits,
 * before the client can see it; the rest when it is done.
 * <p>
 * The end may come first: a reactive request cancelled while its store decides gets its
 * decision afterwards, and that decision is given back as soon as it arrives. One
 * instance per request; thread-safe, and every method may be called any number of times.
 */
public final class RequestLifecycle {

	private static final Object ENDED = new Object();

	/**
	 * {@code null} until decided, then the decision's {@link Completion}, then
	 * {@link #ENDED}.
	 */
	private final AtomicReference<@Nullable Object> state = new AtomicReference<>();

	private final @Nullable InFlightRequests inFlight;

	/** A request's lifecycle that counts in no load signal. */
	public RequestLifecycle() {
		this.inFlight = null;
	}

	/**
	 * A request's lifecycle counted in flight until it ends.
	 * @param inFlight the requests in flight, the load signal's by default
	 */
	public RequestLifecycle(InFlightRequests inFlight) {
		this.inFlight = inFlight;
		inFlight.enter();
	}

	/**
	 * The limiter decided: the request now holds what an allowed decision's
	 * {@link Decision.Allowed#completion() completion} gives back. After {@link #end()},
	 * gives it back at once.
	 * @param decision the decision
	 */
	public void decided(Decision decision) {
		if (!(decision instanceof Decision.Allowed allowed)) {
			// only an allowed request holds anything
			return;
		}
		Completion completion = allowed.completion();
		if (completion == Completion.NONE || this.state.compareAndSet(null, completion)) {
			return;
		}
		if (this.state.get() != completion) {
			// the response ended before the decision came: the request never ran, nothing
			// will end it again
			completion.responseDone(Completion.NOT_RUN);
		}
	}

	/** The request waited for its tokens, or stops waiting: frees its waiting slot. */
	public void waitOver() {
		if (this.state.get() instanceof Completion completion) {
			completion.waitOver();
		}
	}

	/**
	 * The response is done and its final status is not known (timed out, aborted,
	 * cancelled): gives back everything it holds, now and when a decision still arrives;
	 * limits that count only some responses keep counting it.
	 */
	public void end() {
		end(Completion.UNKNOWN);
	}

	/**
	 * The response is done, or the request will not go on: gives back everything it
	 * holds, now and when a decision still arrives, and the tokens of limits that do not
	 * count the status.
	 * @param status the response's final HTTP status; {@link Completion#UNKNOWN} when it
	 * is not known, {@link Completion#NOT_RUN} when the request did not reach the
	 * application
	 */
	public void end(int status) {
		Object previous = this.state.getAndSet(ENDED);
		if (previous instanceof Completion completion) {
			completion.responseDone(status);
		}
		if (previous != ENDED && this.inFlight != null) {
			this.inFlight.exit();
		}
	}

	/**
	 * The response commits with this status, its final one, before any of it reaches the
	 * client: gives back the tokens of limits that do not count it there and then, so a
	 * client that sends its next request as soon as it has the response never finds them
	 * still on their way back. Settles once, whichever comes first of this and
	 * {@link #end(int)}; the waiting slot and the concurrency permits are given back by
	 * {@link #end(int)}. Before the decision or after the end, does nothing.
	 * @param status the status the response commits with
	 */
	public void committed(int status) {
		if (this.state.get() instanceof Completion completion) {
			completion.responseCommitted(status);
		}
	}

	/**
	 * Whether the decision took tokens its final status may give back: only then is the
	 * status worth reading when the response is done.
	 */
	public boolean countsByOutcome() {
		return this.state.get() instanceof Completion completion && completion.countsByOutcome();
	}

}
