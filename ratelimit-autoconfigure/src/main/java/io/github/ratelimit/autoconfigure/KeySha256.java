package io.github.ratelimit.autoconfigure;

import java.util.Locale;

import io.github.ratelimit.identity.ApiKey;

/**
 * The SHA-256 of an API key as configured: 64 hex digits, kept in lower case. Checked as
 * the configuration is bound, so that a raw key pasted in its place stops the start
 * (without being shown) where it was set.
 *
 * @param hex the 64 hex digits, in lower case
 */
public record KeySha256(String hex) {

	/** A valid value, for messages. */
	static final String EXAMPLE = "<sha-256 of the key, 64 hex digits: printf %s \"$KEY\" | sha256sum>";

	public KeySha256 {
		String reason = ApiKey.invalidSha256Reason(hex);
		if (reason != null) {
			throw new IllegalArgumentException(reason);
		}
		hex = hex.toLowerCase(Locale.ROOT);
	}

	@Override
	public String toString() {
		return this.hex;
	}

}
