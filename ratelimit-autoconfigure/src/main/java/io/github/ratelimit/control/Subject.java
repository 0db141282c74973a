package io.github.ratelimit.control;

import java.util.Locale;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

import io.github.ratelimit.identity.CidrRange;
import io.github.ratelimit.identity.CredentialHashes;
import io.github.ratelimit.identity.Identity;
import io.github.ratelimit.policy.Dimension;

/**
 * Whom an access rule, an override, a ban or an operator's call names:
 * {@code user:<name>}, {@code org:<id>}, {@code key:<token id or SHA-256 of the key>}, or
 * {@code ip:…}. Keys are named by hash only: a raw key is never accepted, kept or shown.
 * <p>
 * An {@code ip} subject is one of two things: a rule's address or CIDR range, matched
 * against the client address itself ({@link #parse}, with a {@link #range()}); or a
 * client group as the limiter counts it, what overrides and bans name ({@link #of},
 * {@link #bannedAs}, without a range). The words are in {@code docs/identities.md}.
 *
 * @param kind what the value names
 * @param value the user name, org id, token id ({@code t-…}), the range in canonical form
 * or the client group
 * @param range the range of an {@code ip} rule subject, else {@code null}
 */
public record Subject(Kind kind, String value, @Nullable CidrRange range) {

	private static final Pattern SHA256 = Pattern.compile("[0-9a-fA-F]{64}");

	private static final Pattern TOKEN_ID = Pattern
		.compile(Pattern.quote(CredentialHashes.TOKEN_ID_PREFIX) + "[0-9a-f]{32}");

	/** Longer names are refused: they are ids, not documents. */
	private static final int MAX_LENGTH = 256;

	/** Kinds of subjects. */
	public enum Kind {

		/** A user, by name. */
		USER,

		/** An organisation, by id. */
		ORG,

		/** An API key or token, by token id or SHA-256 (never the raw key). */
		KEY,

		/** A client address, range or address group. */
		IP;

		/** The prefix of the kind, as written ({@code user}). */
		public String key() {
			return name().toLowerCase(Locale.ROOT);
		}

	}

	/**
	 * Parses a subject.
	 * @param text for example {@code user:alice}, {@code key:t-2c26…},
	 * {@code 203.0.113.0/24}
	 * @return the subject
	 * @throws IllegalArgumentException with the reason when the text names none
	 */
	public static Subject parse(String text) {
		String trimmed = text.strip();
		if (trimmed.isEmpty() || trimmed.length() > MAX_LENGTH) {
			throw new IllegalArgumentException("a subject is user:<name>, org:<id>, key:<sha-256 or token id> or "
					+ "an address or CIDR range, at most " + MAX_LENGTH + " characters");
		}
		for (int i = 0; i < trimmed.length(); i++) {
			if (Character.isISOControl(trimmed.charAt(i))) {
				throw new IllegalArgumentException("a subject holds no control characters");
			}
		}
		int colon = trimmed.indexOf(':');
		String prefix = (colon > 0) ? trimmed.substring(0, colon).toLowerCase(Locale.ROOT) : "";
		String value = (colon > 0) ? trimmed.substring(colon + 1).strip() : trimmed;
		switch (prefix) {
			case "user":
				return named(Kind.USER, value);
			case "org":
				return named(Kind.ORG, value);
			case "key":
				return key(value);
			case "ip":
				return ip(value);
			default:
				// a bare address; IPv6 literals hold colons of their own
				return ip(trimmed);
		}
	}

	private static Subject named(Kind kind, String value) {
		if (value.isEmpty()) {
			throw new IllegalArgumentException(kind.key() + ": needs a name, for example " + kind.key() + ":alice");
		}
		return new Subject(kind, value, null);
	}

	private static Subject key(String value) {
		if (SHA256.matcher(value).matches()) {
			return new Subject(Kind.KEY, CredentialHashes.tokenIdOfSha256(value.toLowerCase(Locale.ROOT)), null);
		}
		if (TOKEN_ID.matcher(value).matches()) {
			return new Subject(Kind.KEY, value, null);
		}
		throw new IllegalArgumentException("key: takes the SHA-256 of the key (64 hex digits, as printf %s \"$KEY\" "
				+ "| sha256sum prints it) or its token id (t- and 32 hex digits), never the key itself");
	}

	private static Subject ip(String value) {
		String reason = CidrRange.invalidReason(value);
		if (reason != null) {
			throw new IllegalArgumentException(
					"'" + value + "' is neither user:, org:, key: nor an address or CIDR " + "range (" + reason + ")");
		}
		CidrRange range = CidrRange.parse(value);
		return new Subject(Kind.IP, range.toString(), range);
	}

	/**
	 * The subject an identity is named by in a dimension, as the limiter keys it (a
	 * client group for {@code ip}, a token id for keys).
	 * @param dimension user, org, token or ip
	 * @param id the identity's id in it
	 * @throws IllegalArgumentException for the account, key and service dimensions, which
	 * no operator names
	 */
	public static Subject of(Dimension dimension, String id) {
		return switch (dimension) {
			case USER -> new Subject(Kind.USER, id, null);
			case ORG -> new Subject(Kind.ORG, id, null);
			case TOKEN -> new Subject(Kind.KEY, id, null);
			case IP -> new Subject(Kind.IP, id, null);
			case ACCOUNT, KEY, SERVICE ->
				throw new IllegalArgumentException("no subject names the " + dimension.key() + " dimension");
		};
	}

	/**
	 * The subject a caller is banned as: its user, else its key, else its client group.
	 */
	public static Subject bannedAs(Identity identity) {
		if (identity.user() != null) {
			return new Subject(Kind.USER, identity.user(), null);
		}
		if (identity.token() != null) {
			return new Subject(Kind.KEY, identity.token(), null);
		}
		return new Subject(Kind.IP, identity.ip(), null);
	}

	/**
	 * The key a caller's bans are kept under: {@code bannedAs(identity).banKey()}.
	 */
	public static String banKey(Identity identity) {
		return bannedAs(identity).banKey();
	}

	/**
	 * The key this subject's bans are kept under ({@code user:alice},
	 * {@code ip:198.51.100.7}): what {@link Ban#subject()} and the {@link ControlStore}
	 * hold.
	 */
	public String banKey() {
		return toString();
	}

	/** The dimension this subject's identity is counted in: {@code key} is token. */
	public Dimension dimension() {
		return switch (this.kind) {
			case USER -> Dimension.USER;
			case ORG -> Dimension.ORG;
			case KEY -> Dimension.TOKEN;
			case IP -> Dimension.IP;
		};
	}

	/**
	 * Whether this subject names the caller.
	 * @param identity the caller
	 * @param address the client address, not grouped
	 */
	public boolean matches(Identity identity, String address) {
		return switch (this.kind) {
			case USER -> this.value.equals(identity.user());
			case ORG -> this.value.equals(identity.org());
			case KEY -> this.value.equals(identity.token());
			case IP -> this.range.contains(address);
		};
	}

	@Override
	public String toString() {
		return this.kind.key() + ":" + this.value;
	}

}
