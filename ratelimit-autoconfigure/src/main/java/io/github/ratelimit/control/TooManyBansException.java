package io.github.ratelimit.control;

/**
 * A refusal that would have started a ban started none: as many bans as the store holds
 * at most ({@code ratelimit.bans.max-active}) are in force. The caller is still limited
 * as before.
 */
public final class TooManyBansException extends RuntimeException {

	private final int maxActive;

	public TooManyBansException(int maxActive) {
		// thrown for every refusal while the store is full: no stack trace to fill
		super(maxActive + " bans are in force, the most the store holds", null, false, false);
		this.maxActive = maxActive;
	}

	/** The most bans in force at once. */
	public int maxActive() {
		return this.maxActive;
	}

}
