package io.github.ratelimit.policy;

/**
 * What a limit does when a request exceeds it: the rollout steps of a new limit, from
 * observe to enforce.
 */
public enum Mode {

	/** Refuse the request (429). */
	ENFORCE,

	/**
	 * Admit the request, write the limit's headers and a {@code RateLimit-Warning} that
	 * says it would have been refused, and log it.
	 */
	WARN,

	/**
	 * Admit the request and change nothing in the response; only count and log would-be
	 * refusals.
	 */
	OBSERVE

}
