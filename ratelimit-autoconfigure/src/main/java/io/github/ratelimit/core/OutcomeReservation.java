package io.github.ratelimit.core;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.ratelimit.storage.LimitCheck;
import io.github.ratelimit.storage.RateLimitStore;
import io.github.ratelimit.storage.StoreDecision;

/**
 * The tokens an admitted request took from limits that count only some responses: taken
 * when the request started, like every token (so a burst is decided exactly), and given
 * back to the store that took them once the response's final status turns out to be one
 * the limit does not count.
 */
final class OutcomeReservation {

	private static final Logger logger = LoggerFactory.getLogger(OutcomeReservation.class);

	private final RateLimitStore store;

	private final List<LimitCheck> checks;

	private OutcomeReservation(RateLimitStore store, List<LimitCheck> checks) {
		this.store = store;
		this.checks = checks;
	}

	/**
	 * The reservation of an admitted decision, or {@code null} when it took nothing from
	 * a limit that counts by outcome (the usual case: nothing to give back, nothing to
	 * read at the end).
	 */
	static @Nullable OutcomeReservation of(List<LimitCheck> checks, StoreDecision decision, RateLimitStore store) {
		List<LimitCheck> reserved = null;
		for (int i = 0; i < checks.size(); i++) {
			LimitCheck check = checks.get(i);
			if (check.policy().countsByOutcome() && check.cost() > 0 && decision.results().get(i).hadTokens()) {
				if (reserved == null) {
					reserved = new ArrayList<>(2);
				}
				reserved.add(check);
			}
		}
		return (reserved != null) ? new OutcomeReservation(store, List.copyOf(reserved)) : null;
	}

	/**
	 * Settles the reservation with the response's final status: what the status does not
	 * count goes back.
	 * @param status the final status, {@link Completion#UNKNOWN} (everything stays
	 * counted) or {@link Completion#NOT_RUN} (everything goes back)
	 */
	void settle(int status) {
		if (status == Completion.UNKNOWN) {
			return;
		}
		List<LimitCheck> back = new ArrayList<>(this.checks.size());
		for (LimitCheck check : this.checks) {
			if (status == Completion.NOT_RUN || !check.policy().counts().counts(status)) {
				back.add(check);
			}
		}
		if (back.isEmpty()) {
			return;
		}
		try {
			this.store.giveBack(back);
		}
		catch (RuntimeException ex) {
			// the request stays counted: the strict side
			logger.warn("The rate-limit store could not give back the tokens of a response its limit does not count",
					ex);
		}
	}

}
