package io.github.ratelimit.core;

/**
 * What the limiter decided for a request, as a bounded value for log lines and metric
 * tags. Each {@link Decision} record answers its own ({@link Decision#outcome()}); code
 * that needs a decision's data matches on the record instead.
 */
public enum Outcome {

	/** {@link Decision.Unlimited}. */
	UNLIMITED,

	/** {@link Decision.Allowed}. */
	ALLOWED,

	/** {@link Decision.Rejected}. */
	REJECTED,

	/** {@link Decision.Blocked}. */
	BLOCKED,

	/** {@link Decision.Denied}. */
	DENIED,

	/** {@link Decision.Banned}. */
	BANNED,

	/** {@link Decision.AdmittedOnError}. */
	ADMITTED_ON_ERROR,

	/** {@link Decision.Unavailable}. */
	UNAVAILABLE,

	/** {@link Decision.Shed}. */
	SHED

}
