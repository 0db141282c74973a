package io.github.ratelimit.client;

/**
 * Why a {@link RateLimitClient} waits; a bounded metric tag.
 */
public enum WaitReason {

	/** The refusal's {@code Retry-After}. */
	RETRY_AFTER("retry-after"),

	/** The reset of the exhausted policy the refusal reports. */
	RESET("reset"),

	/** Exponential backoff, since the refusal said nothing about when to retry. */
	BACKOFF("backoff"),

	/** An earlier response showed a policy of the host exhausted; held until it frees. */
	PACING("pacing");

	private final String tag;

	WaitReason(String tag) {
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
