package io.github.ratelimit.http;

import io.github.ratelimit.core.Outcome;

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
	 * Returns the status of a refusing outcome.
	 * @param outcome {@link Outcome#REJECTED}, {@link Outcome#BLOCKED},
	 * {@link Outcome#DENIED}, {@link Outcome#BANNED} or {@link Outcome#UNAVAILABLE}
	 * @return the status
	 * @throws IllegalArgumentException when the outcome admits the request, which keeps
	 * the application's own status
	 */
	public static RateLimitStatus of(Outcome outcome) {
		return switch (outcome) {
			case REJECTED -> TOO_MANY_REQUESTS;
			case BLOCKED, DENIED, BANNED -> FORBIDDEN;
			case UNAVAILABLE -> SERVICE_UNAVAILABLE;
			case UNLIMITED, ALLOWED, ADMITTED_ON_ERROR -> throw new IllegalArgumentException(
					"Outcome " + outcome + " admits the request; it has no refusal status");
		};
	}

}
