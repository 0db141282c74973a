package io.github.ratelimit.core;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * Makes identity ids safe inside store keys. Plain short ids stay readable for operators
 * ({@code rl:user:auth:1a2b3c4d:alice}); anything longer or with other characters is
 * replaced by a hash, so no caller input can reach into another key or bloat the store.
 */
public final class StoreKeys {

	private static final int MAX_PLAIN_LENGTH = 64;

	private StoreKeys() {
	}

	/** Escapes an id for the last segment of a store key. */
	public static String escape(String id) {
		int length = id.length();
		if (length == 0 || length > MAX_PLAIN_LENGTH) {
			return hashed(id);
		}
		for (int i = 0; i < length; i++) {
			if (!isPlain(id.charAt(i))) {
				return hashed(id);
			}
		}
		return id;
	}

	private static boolean isPlain(char c) {
		return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '-'
				|| c == '_' || c == '@' || c == ':' || c == '/';
	}

	/**
	 * A short hash of an id ({@code #} and 22 characters of SHA-256, base64url). '#'
	 * never occurs in a plain id, so a hashed id cannot equal a plain one.
	 */
	static String hashed(String id) {
		try {
			byte[] digest = MessageDigest.getInstance("SHA-256").digest(id.getBytes(StandardCharsets.UTF_8));
			return "#" + Base64.getUrlEncoder().withoutPadding().encodeToString(digest).substring(0, 22);
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
