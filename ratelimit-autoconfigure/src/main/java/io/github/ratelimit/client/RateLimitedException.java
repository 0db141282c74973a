package io.github.ratelimit.client;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * A call the server refused (429, or 503 with {@code Retry-After}) that the client will
 * not retry, or that it did not send because the host's breaker is open or an exhausted
 * policy holds it longer than the call may wait. It says what a caller needs to act: the
 * status, how long to wait, whether the request is safe to send again, and the members of
 * the server's problem body. The message is one line:
 * {@code Rate limit exceeded for org. Retry after 8s or reduce concurrency.}
 */
public class RateLimitedException extends RuntimeException {

	private final int status;

	private final @Nullable Duration retryAfter;

	private final boolean safeToRetry;

	private final int attempts;

	private final @Nullable ProblemDetails problem;

	private final GiveUpReason reason;

	/**
	 * Creates an exception.
	 * @param message the one-line message
	 * @param status the status of the last response, or 429 when the request was not sent
	 * @param retryAfter how long to wait before sending again, or {@code null} when the
	 * server did not say
	 * @param safeToRetry whether the request may be sent again unchanged (an idempotent
	 * method or one with an {@code Idempotency-Key})
	 * @param attempts how many requests the call sent
	 * @param problem the members of the server's problem body, or {@code null}
	 * @param reason why the client gave up
	 */
	public RateLimitedException(String message, int status, @Nullable Duration retryAfter, boolean safeToRetry,
			int attempts, @Nullable ProblemDetails problem, GiveUpReason reason) {
		super(message);
		this.status = status;
		this.retryAfter = retryAfter;
		this.safeToRetry = safeToRetry;
		this.attempts = attempts;
		this.problem = problem;
		this.reason = reason;
	}

	/**
	 * The status of the last response, or 429 when the request was not sent.
	 * @return the status
	 */
	public int status() {
		return this.status;
	}

	/**
	 * How long to wait before sending the request again.
	 * @return the wait, or {@code null} when the server did not say
	 */
	public @Nullable Duration retryAfter() {
		return this.retryAfter;
	}

	/**
	 * Whether the request may be sent again unchanged: an idempotent method, or any
	 * method with an {@code Idempotency-Key}.
	 * @return whether a retry is safe
	 */
	public boolean safeToRetry() {
		return this.safeToRetry;
	}

	/**
	 * How many requests the call sent (0 when the first was held back).
	 * @return the attempts
	 */
	public int attempts() {
		return this.attempts;
	}

	/**
	 * The members of the server's problem body: scope, policy, code, request id, detail.
	 * @return the problem, or {@code null} when the response had no readable one
	 */
	public @Nullable ProblemDetails problem() {
		return this.problem;
	}

	/**
	 * Why the client gave up.
	 * @return the reason
	 */
	public GiveUpReason reason() {
		return this.reason;
	}

}
