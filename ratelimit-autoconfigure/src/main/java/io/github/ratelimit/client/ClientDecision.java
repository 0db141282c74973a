package io.github.ratelimit.client;

import java.time.Duration;

/**
 * What to do with a response, as {@link ClientCall#afterResponse} decides it.
 */
public sealed interface ClientDecision permits ClientDecision.Done, ClientDecision.Retry, ClientDecision.GiveUp {

	/**
	 * Hand the response to the caller: a success, or a status that retrying cannot change
	 * (400, 401, 403, 404, 409, 422, a 503 without {@code Retry-After}, ...).
	 */
	record Done() implements ClientDecision {

	}

	/**
	 * Discard the response, wait, and send the request again (after
	 * {@link ClientCall#beforeSend()}).
	 *
	 * @param delay how long to wait, jitter included
	 */
	record Retry(Duration delay) implements ClientDecision {

	}

	/**
	 * Discard the response and throw the exception to the caller.
	 *
	 * @param exception what the caller learns: status, wait, whether a retry is safe, the
	 * problem body's members
	 */
	record GiveUp(RateLimitedException exception) implements ClientDecision {

	}

}
