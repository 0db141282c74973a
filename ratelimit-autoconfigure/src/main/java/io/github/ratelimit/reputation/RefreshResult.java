package io.github.ratelimit.reputation;

/** What a refresh of a reputation list did. */
public enum RefreshResult {

	/** The list read replaced the one in force. */
	LOADED,

	/** The list could not be read (unreachable, missing): the last good list stays. */
	FAILED,

	/**
	 * The list was read but is empty, corrupt (more than half its entries bad) or too
	 * large: the last good list stays.
	 */
	REJECTED

}
