package io.github.ratelimit.core;

/**
 * What the limiter decided for a request.
 */
public enum Outcome {

	/**
	 * No limit applies (excluded path, or no policy for the tier and group): nothing is
	 * written.
	 */
	UNLIMITED,

	/** Every limit admitted the request. */
	ALLOWED,

	/** A limit is spent: 429, retry later. */
	REJECTED,

	/**
	 * A limit of {@code 0} blocks the caller's tier from the group: 403, waiting never
	 * helps.
	 */
	BLOCKED,

	/** A deny rule names the caller: 403, no store was asked. */
	DENIED,

	/** The caller is banned for repeated refusals: 403 until the ban ends. */
	BANNED,

	/**
	 * The store could not decide and {@code failure-mode} is {@code open}: admitted, and
	 * counted.
	 */
	ADMITTED_ON_ERROR,

	/** The store could not decide and {@code failure-mode} is {@code closed}: 503. */
	UNAVAILABLE;

	/** Whether the request goes on to the application. */
	public boolean admits() {
		return this == UNLIMITED || this == ALLOWED || this == ADMITTED_ON_ERROR;
	}

}
