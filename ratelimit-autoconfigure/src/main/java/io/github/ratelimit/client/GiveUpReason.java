package io.github.ratelimit.client;

/**
 * Why a {@link RateLimitClient} gives up a refused call instead of retrying it; a bounded
 * metric tag.
 */
public enum GiveUpReason {

	/**
	 * The method is not idempotent and the request carries no {@code Idempotency-Key}: a
	 * retry could do the work twice.
	 */
	UNSAFE_METHOD("unsafe-method"),

	/** The call has sent its {@code max-attempts} requests. */
	ATTEMPTS("attempts"),

	/**
	 * The wait would spend more than what is left of the call's {@code max-total-wait}.
	 */
	BUDGET("budget"),

	/**
	 * The server asks for a wait longer than {@code max-delay}, which cannot be honoured.
	 */
	WAIT_TOO_LONG("wait-too-long"),

	/** The host's breaker is open after repeated 429s: the request was not sent. */
	BREAKER_OPEN("breaker-open");

	private final String tag;

	GiveUpReason(String tag) {
		this.tag = tag;
	}

	/**
	 * The value of this reason as a metric tag or in a log line.
	 * @return the tag
	 */
	public String tag() {
		return this.tag;
	}

	@Override
	public String toString() {
		return this.tag;
	}

}
