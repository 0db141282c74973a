package io.github.ratelimit.geo;

/** What the country rules do with an address the database gives no country. */
public enum UnknownCountry {

	/** Let it through (the default: private ranges and new allocations have none). */
	ALLOW,

	/** Refuse it with {@code geo_blocked}. */
	DENY

}
