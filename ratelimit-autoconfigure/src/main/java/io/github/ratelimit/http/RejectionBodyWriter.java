package io.github.ratelimit.http;

import io.github.ratelimit.core.Decision;

/**
 * Writes the body of a refused request ({@link io.github.ratelimit.core.Outcome#REJECTED
 * REJECTED}, {@link io.github.ratelimit.core.Outcome#BLOCKED BLOCKED} or
 * {@link io.github.ratelimit.core.Outcome#UNAVAILABLE UNAVAILABLE}). The default is
 * {@link ProblemDetailsBodyWriter}; declare a bean of this type to answer in your API's
 * own error format. The status and headers are written by the limiter either way (see
 * {@link RateLimitStatus} and {@link RateLimitHeaders}).
 * <p>
 * Implementations run on the request path, possibly on an event loop: they must not
 * block, and should not throw.
 */
public interface RejectionBodyWriter {

	/**
	 * The {@code Content-Type} of the bodies, such as {@code application/problem+json}.
	 */
	String contentType();

	/**
	 * Writes the body of a refusal.
	 * @param decision a decision whose outcome refuses the request
	 * @param requestId the request id sent in {@code X-Request-Id}, already sanitized by
	 * {@link RequestIds}
	 * @return the body, encoded as {@link #contentType()} says
	 */
	byte[] write(Decision decision, String requestId);

}
