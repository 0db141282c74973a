package io.github.ratelimit.identity;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Hashes of credentials, so that a secret is never kept, compared, logged or stored as
 * itself. Use {@link #tokenId(String)} for the id of the {@code token} dimension in a
 * custom {@link IdentityResolver}.
 */
public final class CredentialHashes {

	/**
	 * The prefix of token ids, telling them apart from user and org ids when read in a
	 * store.
	 */
	public static final String TOKEN_ID_PREFIX = "t-";

	/**
	 * Hex digits of the SHA-256 kept in a token id: 128 bits, plenty to keep distinct
	 * keys apart.
	 */
	private static final int TOKEN_ID_HEX_LENGTH = 32;

	private static final HexFormat HEX = HexFormat.of();

	// never updated: only cloned, so its state stays that of a new digest
	private static final MessageDigest SHA_256 = sha256();

	private CredentialHashes() {
	}

	/**
	 * The SHA-256 of a text as lower-case hex, as {@code printf %s "$KEY" | sha256sum}
	 * prints it.
	 * @param text the text, encoded as UTF-8
	 * @return 64 lower-case hex digits
	 */
	public static String sha256Hex(String text) {
		return HEX.formatHex(newSha256().digest(text.getBytes(StandardCharsets.UTF_8)));
	}

	/**
	 * A digest of its own for each hash (MessageDigest is not thread-safe), copied from
	 * one that is never used: looking the algorithm up among the providers cost twice the
	 * hash of an API key, on every request that presents one.
	 */
	private static MessageDigest newSha256() {
		try {
			return (MessageDigest) SHA_256.clone();
		}
		catch (CloneNotSupportedException ex) {
			return sha256();
		}
	}

	private static MessageDigest sha256() {
		try {
			return MessageDigest.getInstance("SHA-256");
		}
		catch (NoSuchAlgorithmException ex) {
			// every Java platform must provide SHA-256
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * The id of a credential in the {@code token} dimension: short, stable across
	 * restarts and instances, and not the secret ({@code t-} and the first 128 bits of
	 * its SHA-256 in hex).
	 * @param credential the secret
	 * @return the token id, for example {@code t-2c26b46b68ffc68ff99b453c1d304134}
	 */
	public static String tokenId(String credential) {
		return tokenIdOfSha256(sha256Hex(credential));
	}

	/**
	 * The token id of a credential known by its SHA-256 only, equal to
	 * {@link #tokenId(String)} of the credential.
	 * @param sha256Hex the SHA-256 of the credential as 64 lower-case hex digits
	 * @return the token id
	 */
	public static String tokenIdOfSha256(String sha256Hex) {
		return TOKEN_ID_PREFIX + sha256Hex.substring(0, TOKEN_ID_HEX_LENGTH);
	}

}
