package io.github.ratelimit.policy;

/**
 * The effective policy table, swappable at runtime: the limiter and the identifier read
 * the current table on every request, so a replaced table applies from the next request
 * on, on this instance.
 * <p>
 * A replaced limit keeps the state of its buckets when it keeps its shape (the same kinds
 * of items over the same windows, which the store keys are made of): a bucket keeps the
 * tokens it holds, at most the new capacity, and refills at the new rate; a quota keeps
 * its count in the period. Limits over other windows start with fresh buckets.
 */
public final class PolicyRegistry {

	private volatile PolicyTable current;

	public PolicyRegistry(PolicyTable table) {
		this.current = table;
	}

	/** The table in force. */
	public PolicyTable current() {
		return this.current;
	}

	/** Puts another table in force from the next request on. */
	public void replace(PolicyTable table) {
		this.current = table;
	}

}
