package io.github.ratelimit.core.status;

import io.github.ratelimit.core.Decision;

/**
 * What a caller asking for its status gets: its standing, or the refusal any request of
 * it would get (a deny rule, a ban), or a store that cannot be read now.
 */
public sealed interface StatusAnswer permits StatusAnswer.Known, StatusAnswer.Refused {

	/**
	 * The caller's standing.
	 *
	 * @param standing its budgets
	 */
	record Known(CallerStanding standing) implements StatusAnswer {

	}

	/**
	 * No standing to show: the caller is denied or banned ({@link Decision.Denied},
	 * {@link Decision.Banned}, answered as the limiter answers them), or the store cannot
	 * be read now ({@link Decision.Unavailable}, 503).
	 *
	 * @param refusal the refusal to answer with
	 */
	record Refused(Decision.Refusal refusal) implements StatusAnswer {

	}

}
