package io.github.ratelimit.core;

/**
 * What the limiter does when the store cannot decide in time.
 */
public enum FailureMode {

	/** Admit the request (and count it as an error): availability first. */
	OPEN,

	/** Reject with 503: protection first. */
	CLOSED,

	/** Decide with per-instance buckets in memory until the store is back. */
	LOCAL

}
