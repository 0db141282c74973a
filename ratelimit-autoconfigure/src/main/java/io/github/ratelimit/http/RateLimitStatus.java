package io.github.ratelimit.http;

import io.github.ratelimit.core.Decision;

/**
 * The HTTP status of a refused request, kept here so that the servlet and WebFlux
 * adapters answer alike.
 */
public enum RateLimitStatus {

	/** A limit is spent (RFC 6585): waiting helps. */
	TOO_MANY_REQUESTS(429, "Too Many Requests"),

	/** The caller's tier may not use the endpoint group: waiting never helps. */
	FORBIDDEN(403, "Forbidden"),

	/** The store could not decide and the failure mode is {@code closed}. */
	SERVICE_UNAVAILABLE(503, "Service Unavailable");

	private final int code;

	private final String reasonPhrase;

	RateLimitStatus(int code, String reasonPhrase) {
		this.code = code;
		this.reasonPhrase = reasonPhrase;
	}

	/** The status code, such as {@code 429}. */
	public int code() {
		return this.code;
	}

	/** The reason phrase, also the {@code title} of the problem body. */
	public String reasonPhrase() {
		return this.reasonPhrase;
	}

	/**
	 * Returns the status of a refusal.
	 * @param refusal the refusal
	 * @return 429 for a {@link Decision.Rejected rejection}, 503 when the limiter was
	 * {@link Decision.Unavailable unavailable} or {@link Decision.Shed shed load}, 403
	 * for the others (blocked, denied, banned)
	 */
	public static RateLimitStatus of(Decision.Refusal refusal) {
		if (refusal instanceof Decision.Rejected) {
			return TOO_MANY_REQUESTS;
		}
		return (refusal instanceof Decision.Unavailable || refusal instanceof Decision.Shed) ? SERVICE_UNAVAILABLE
				: FORBIDDEN;
	}

}
