package io.github.ratelimit.core;

/**
 * Which limits of a request a decision covers. A request is normally decided whole
 * ({@link #ALL}). A filter ordered before authentication (the gate) may decide the limits
 * that count by outcome ({@link #OUTCOME_COUNTED}) so that responses written by the
 * authentication's own refusals are counted, and the filter after authentication then
 * decides the rest ({@link #COUNTING_EVERY_RESPONSE}): each limit is decided once.
 */
public enum CheckScope {

	/** Every limit of the request. */
	ALL,

	/**
	 * Only the limits that count some responses ({@code ratelimit.groups.<group>.count},
	 * {@code @RateLimited(count = ...)}), for the identity known at that point (before
	 * authentication: the client address).
	 */
	OUTCOME_COUNTED,

	/**
	 * Only the limits that count every response: what is left after
	 * {@link #OUTCOME_COUNTED}.
	 */
	COUNTING_EVERY_RESPONSE;

	boolean covers(boolean countsByOutcome) {
		return switch (this) {
			case ALL -> true;
			case OUTCOME_COUNTED -> countsByOutcome;
			case COUNTING_EVERY_RESPONSE -> !countsByOutcome;
		};
	}

}
