package io.github.ratelimit.actuate;

import java.util.Locale;

import io.github.ratelimit.control.Subject;
import io.github.ratelimit.policy.Dimension;

/**
 * Whom an endpoint call names: a dimension and an id as the limiter keys them ({@code key} ids are token
 * ids, whichever way the key was named), and the identity's ban subject.
 *
 * @param dimension the dimension
 * @param id the id in it
 * @param banSubject the subject its bans are kept under
 */
record Target(Dimension dimension, String id, String banSubject) {

	/**
	 * Reads a target.
	 * @param dimension {@code user}, {@code org}, {@code key} (or {@code token}) or {@code ip}
	 * @param id the id; for a key its SHA-256 or token id
	 * @throws IllegalArgumentException with the reason
	 */
	static Target of(String dimension, String id) {
		String kind = dimension.strip().toLowerCase(Locale.ROOT);
		Subject subject = switch (kind) {
			case "user", "org", "key" -> Subject.parse(kind + ":" + id);
			case "token" -> Subject.parse("key:" + id);
			case "ip" -> null;
			default -> throw new IllegalArgumentException(
					"Unknown dimension '" + dimension + "'; use user, org, key (an API key's SHA-256 or token id) or ip");
		};
		if (subject == null) {
			String ip = plainId(id);
			return new Target(Dimension.IP, ip, "ip:" + ip);
		}
		Dimension target = switch (subject.kind()) {
			case USER -> Dimension.USER;
			case ORG -> Dimension.ORG;
			default -> Dimension.TOKEN;
		};
		return new Target(target, subject.value(), subject.toString());
	}

	/** A ban subject as an operator writes it ({@code ip:203.0.113.7}, {@code user:alice}, {@code key:<sha-256>}). */
	static String banSubject(String text) {
		String trimmed = text.strip();
		if (trimmed.regionMatches(true, 0, "ip:", 0, 3)) {
			return "ip:" + plainId(trimmed.substring(3));
		}
		return Subject.parse(trimmed).toString();
	}

	// an address or address group as the limiter keys it (an IPv6 client by its prefix)
	private static String plainId(String id) {
		String trimmed = id.strip();
		if (trimmed.isEmpty() || trimmed.length() > 256 || trimmed.chars().anyMatch(Character::isISOControl)) {
			throw new IllegalArgumentException("An id is 1 to 256 characters without control characters");
		}
		return trimmed;
	}

}
