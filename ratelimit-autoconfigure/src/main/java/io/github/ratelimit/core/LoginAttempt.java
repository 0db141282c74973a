package io.github.ratelimit.core;

import java.util.Locale;

import org.jspecify.annotations.Nullable;

import io.github.ratelimit.storage.StoreKeys;

/**
 * A request that presents credentials, as the gate before authentication sees it: what
 * {@link LoginProtection} counts when the attempt fails.
 *
 * @param account a hash of the account name tried, or {@code null} when the attempt names
 * none (a bearer token); never the name itself, which is neither verified nor the
 * limiter's to keep
 */
public record LoginAttempt(@Nullable String account) {

	/** An attempt that names no account. */
	public static final LoginAttempt ANONYMOUS = new LoginAttempt(null);

	// longer names are cut before hashing: an attacker must not make the gate hash
	// megabytes
	private static final int MAX_NAME_LENGTH = 256;

	/**
	 * The attempt on an account. Names are compared trimmed and lower-cased, so that
	 * "Alice " and "alice" share one budget (an attacker cannot multiply it by varying
	 * case).
	 * @param name the user name tried, or {@code null}
	 * @return the attempt
	 */
	public static LoginAttempt on(@Nullable String name) {
		if (name == null) {
			return ANONYMOUS;
		}
		String trimmed = name.strip();
		if (trimmed.isEmpty()) {
			return ANONYMOUS;
		}
		if (trimmed.length() > MAX_NAME_LENGTH) {
			trimmed = trimmed.substring(0, MAX_NAME_LENGTH);
		}
		return new LoginAttempt(StoreKeys.hashed(trimmed.toLowerCase(Locale.ROOT)));
	}

}
