package io.github.ratelimit.autoconfigure;

/**
 * The default order of the rate-limit filters.
 */
public final class RateLimitFilterOrder {

	/**
	 * Just after Spring Security's filter chain
	 * ({@code SecurityFilterProperties.DEFAULT_FILTER_ORDER}, -100), so the caller's
	 * {@code Authentication} is known, and before the application's own filters.
	 */
	public static final int DEFAULT = -100 + 10;

	/**
	 * The gate before authentication: just before Spring Security's filter chain
	 * (servlet: {@code SecurityFilterProperties.DEFAULT_FILTER_ORDER}; WebFlux:
	 * {@code WebFilterChainProxy}, ordered
	 * {@code WebFluxSecurityConfiguration.WEB_FILTER_CHAIN_FILTER_ORDER}; both -100), so
	 * that a denied or banned address is refused before any password is checked.
	 */
	public static final int GATE = -100 - 10;

	private RateLimitFilterOrder() {
	}

}
