package io.github.ratelimit.autoconfigure;

/**
 * The default order of the rate-limit filters.
 */
public final class RateLimitFilterOrder {

	/**
	 * Just after Spring Security's filter chain ({@code SecurityFilterProperties.DEFAULT_FILTER_ORDER},
	 * -100), so the caller's {@code Authentication} is known, and before the application's own filters.
	 */
	public static final int DEFAULT = -100 + 10;

	private RateLimitFilterOrder() {
	}

}
