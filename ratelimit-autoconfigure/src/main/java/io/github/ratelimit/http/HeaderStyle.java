package io.github.ratelimit.http;

/**
 * A family of rate-limit response headers, as selected by
 * {@code ratelimit.headers.styles}. Several families can be sent together as long as
 * their field names do not collide; see {@link RateLimitHeaders#of(java.util.Set)}.
 */
public enum HeaderStyle {

	/**
	 * The newest IETF httpapi draft (-11): {@code RateLimit-Policy} and
	 * {@code RateLimit}, both structured-field Lists
	 * ({@code "premium-user-auth";q=100;w=60} and {@code "premium-user-auth";r=0;t=23}).
	 */
	IETF("ietf"),

	/**
	 * {@code X-RateLimit-Limit}, {@code X-RateLimit-Remaining} and
	 * {@code X-RateLimit-Reset}, as most SDKs read them. Reset is in delta-seconds
	 * (GitHub sends an epoch; a delay is immune to clock skew and matches
	 * {@code Retry-After}).
	 */
	X_RATELIMIT("x-ratelimit"),

	/**
	 * Drafts -04 to -06: {@code RateLimit-Limit}, {@code RateLimit-Remaining},
	 * {@code RateLimit-Reset} and {@code RateLimit-Policy: 100;w=60}.
	 */
	SPLIT("split"),

	/**
	 * Draft -07: {@code RateLimit: limit=100, remaining=0, reset=23} and
	 * {@code RateLimit-Policy: 100;w=60}.
	 */
	DRAFT7("draft7"),

	/**
	 * No rate-limit headers at all. {@code Retry-After} is still sent on a rejection,
	 * since HTTP clients rely on it.
	 */
	NONE("none");

	private final String value;

	HeaderStyle(String value) {
		this.value = value;
	}

	/** The value of this style in {@code ratelimit.headers.styles}. */
	public String value() {
		return this.value;
	}

	@Override
	public String toString() {
		return this.value;
	}

}
