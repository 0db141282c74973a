package io.github.ratelimit.core;

/**
 * What the limiter does while the store is unhealthy (not connected, answering errors,
 * silent), and for a decision whose answer stayed unread too long. Every such decision is
 * counted and logged ({@link FailureModeLog}).
 */
public enum FailureMode {

	/** Admit the request (and count it as an error): availability first. */
	OPEN,

	/** Reject with 503: protection first. */
	CLOSED,

	/**
	 * Decide with per-instance buckets in memory until the store is back (the default):
	 * limits keep holding, per instance, so N instances admit up to N times a limit.
	 */
	LOCAL

}
