package io.github.ratelimit.http;

import io.github.ratelimit.core.Decision;

/**
 * Writes the body of a refused request (a {@link Decision.Refusal}: rejected, blocked,
 * denied, banned or unavailable). The default is {@link ProblemDetailsBodyWriter};
 * declare a bean of this type to answer in your API's own error format. The status and
 * headers are written by the limiter either way (see {@link RateLimitStatus} and
 * {@link RateLimitHeaders}).
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
	 * @param refusal the refusal; match on its record for what it carries
	 * @param requestId the request id sent in {@code X-Request-Id}, already sanitized by
	 * {@link RequestIds}
	 * @return the body, encoded as {@link #contentType()} says
	 */
	byte[] write(Decision.Refusal refusal, String requestId);

}
