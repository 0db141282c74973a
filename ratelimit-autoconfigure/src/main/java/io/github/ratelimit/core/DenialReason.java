package io.github.ratelimit.core;

/**
 * Why a {@link Decision.Denied} refuses a caller: each reason has the {@code code} of the
 * 403 problem body and a bounded name for metrics.
 */
public enum DenialReason {

	/** A deny rule names the caller ({@code ratelimit.access.deny}, the endpoint). */
	ACCESS_RULE("access_denied", "access"),

	/** The client address is in a country the country rules refuse. */
	GEO("geo_blocked", "geo"),

	/** The client address is on a deny list of addresses of bad reputation. */
	REPUTATION("reputation_denied", "reputation");

	private final String code;

	private final String tag;

	DenialReason(String code, String tag) {
		this.code = code;
		this.tag = tag;
	}

	/** The {@code code} member of the problem body. */
	public String code() {
		return this.code;
	}

	/** The bounded name of the reason, for metric tags and logs. */
	public String tag() {
		return this.tag;
	}

}
