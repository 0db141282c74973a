package io.github.ratelimit.identity;

import java.util.Locale;

import org.jspecify.annotations.Nullable;

/**
 * A configured API key, known by its SHA-256 only, and the caller it stands for. Create
 * the hash with {@code printf %s "$KEY" | sha256sum}; the key itself need not be in the
 * configuration.
 *
 * @param keySha256 the SHA-256 of the key as 64 hex digits (kept in lower case)
 * @param user the user the key belongs to, or {@code null} (a shared integration key)
 * @param org the organisation, or {@code null}
 * @param tier the plan, or {@code null} for the authenticated tier
 */
public record ApiKey(String keySha256, @Nullable String user, @Nullable String org, @Nullable String tier) {

	/**
	 * Longer keys are refused unread: no real key is this long, and hashing a flood of
	 * them costs CPU.
	 */
	public static final int MAX_KEY_LENGTH = 256;

	/**
	 * Checks the hash and drops blank names.
	 * @throws IllegalArgumentException when {@code keySha256} is not 64 hex digits
	 */
	public ApiKey {
		String reason = invalidSha256Reason(keySha256);
		if (reason != null) {
			throw new IllegalArgumentException(reason);
		}
		keySha256 = keySha256.toLowerCase(Locale.ROOT);
		user = blankToNull(user);
		org = blankToNull(org);
		tier = blankToNull(tier);
	}

	/**
	 * An API key given as the key itself, for demos and tests: it is hashed here and not
	 * kept. Production configuration should hold the hash only.
	 * @param key the key: 1 to 256 visible ASCII characters
	 * @param user the user, or {@code null}
	 * @param org the organisation, or {@code null}
	 * @param tier the plan, or {@code null}
	 * @return the key definition
	 * @throws IllegalArgumentException when the key could never be presented (the message
	 * does not show it)
	 */
	public static ApiKey ofKey(String key, @Nullable String user, @Nullable String org, @Nullable String tier) {
		if (!isPresentable(key)) {
			throw new IllegalArgumentException(
					"an API key must be 1 to " + MAX_KEY_LENGTH + " visible ASCII characters without spaces");
		}
		return new ApiKey(CredentialHashes.sha256Hex(key), user, org, tier);
	}

	/**
	 * Checks a configured hash without throwing, for configuration validation that
	 * reports the property.
	 * @param keySha256 the configured value
	 * @return why it is not a SHA-256 in hex, or {@code null} when it is
	 */
	public static @Nullable String invalidSha256Reason(@Nullable String keySha256) {
		if (keySha256 == null || keySha256.length() != 64) {
			return "the key's SHA-256 must be 64 hex digits (printf %s \"$KEY\" | sha256sum), not "
					+ ((keySha256 != null) ? keySha256.length() + " characters" : "missing");
		}
		for (int i = 0; i < keySha256.length(); i++) {
			char c = keySha256.charAt(i);
			if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))) {
				// the character is not shown: a key pasted here by mistake should not
				// reach the logs
				return "the key's SHA-256 must be 64 hex digits (printf %s \"$KEY\" | sha256sum); character " + i
						+ " is not one";
			}
		}
		return null;
	}

	/**
	 * Whether a presented key could be a key at all: 1 to 256 visible ASCII characters.
	 */
	static boolean isPresentable(String key) {
		int length = key.length();
		if (length == 0 || length > MAX_KEY_LENGTH) {
			return false;
		}
		for (int i = 0; i < length; i++) {
			char c = key.charAt(i);
			if (c <= ' ' || c > '~') {
				return false;
			}
		}
		return true;
	}

	private static @Nullable String blankToNull(@Nullable String value) {
		return (value == null || value.isBlank()) ? null : value;
	}

}
