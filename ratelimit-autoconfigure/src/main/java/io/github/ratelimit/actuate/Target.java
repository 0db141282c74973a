package io.github.ratelimit.actuate;

import java.util.Locale;

import io.github.ratelimit.control.ControlInput;
import io.github.ratelimit.control.InvalidControlInputException;
import io.github.ratelimit.control.Subject;
import io.github.ratelimit.identity.ClientIpResolver;
import io.github.ratelimit.policy.Dimension;

/**
 * Whom an endpoint call names: a dimension and an id as the limiter keys them
 * ({@code key} ids are token ids, whichever way the key was named; {@code ip} ids the
 * client group an address is counted in, so an IPv6 address is its /64 by default), and
 * the identity's ban subject. Whatever the limiter would never match is refused, with the
 * form to use, rather than set and silently never applied.
 *
 * @param dimension the dimension
 * @param id the id in it
 * @param banSubject the subject its bans are kept under
 */
record Target(Dimension dimension, String id, String banSubject) {

	/** Subjects as an operator writes them, for messages. */
	static final String SUBJECT_EXAMPLE = "ip:198.51.100.7, ip:2001:db8:5::/64, user:alice, org:acme, key:<sha-256>";

	/**
	 * Reads a target.
	 * @param dimension {@code user}, {@code org}, {@code key} (or {@code token}) or
	 * {@code ip}
	 * @param id the id; for a key its SHA-256 or token id; for ip an address or its group
	 * @param ips how the limiter groups client addresses
	 * @throws InvalidControlInputException naming the field, with the form to use
	 */
	static Target of(String dimension, String id, ClientIpResolver ips) {
		String kind = dimension.strip().toLowerCase(Locale.ROOT);
		String example = switch (kind) {
			case "user" -> "alice";
			case "org" -> "acme";
			case "key", "token" -> "the key's SHA-256 (64 hex digits) or its token id (t- and 32 hex digits)";
			case "ip" -> "198.51.100.7 or " + ips.example(false);
			default -> throw new InvalidControlInputException("dimension", dimension,
					"unknown dimension; use user, org, key (an API key's SHA-256 or token id) or ip", "user");
		};
		String checked = ControlInput.id("id", id, example);
		if ("ip".equals(kind)) {
			String ip = ipId("id", checked, ips);
			return new Target(Dimension.IP, ip, "ip:" + ip);
		}
		Subject subject;
		try {
			subject = Subject.parse(("token".equals(kind) ? "key" : kind) + ":" + checked);
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidControlInputException("id", checked, ex.getMessage(), example);
		}
		Dimension target = switch (subject.kind()) {
			case USER -> Dimension.USER;
			case ORG -> Dimension.ORG;
			default -> Dimension.TOKEN;
		};
		return new Target(target, subject.value(), subject.toString());
	}

	/**
	 * A ban subject as an operator writes it ({@code ip:203.0.113.7}, {@code user:alice},
	 * {@code key:<sha-256>}; a bare address means {@code ip:}), as bans are kept: an
	 * address as the group it is counted in.
	 * @throws InvalidControlInputException naming the field, with the form to use
	 */
	static String banSubject(String text, ClientIpResolver ips) {
		String trimmed = ControlInput.id("subject", text, SUBJECT_EXAMPLE);
		int colon = trimmed.indexOf(':');
		String prefix = (colon > 0) ? trimmed.substring(0, colon).toLowerCase(Locale.ROOT) : "";
		if (prefix.equals("user") || prefix.equals("org") || prefix.equals("key")) {
			return subject(trimmed).toString();
		}
		String address = prefix.equals("ip") ? trimmed.substring(colon + 1) : trimmed;
		return "ip:" + ipId("subject", address, ips);
	}

	/**
	 * A rule subject: {@code user:}, {@code org:}, {@code key:}, or an address or CIDR
	 * range, matched against the client address itself (not its group).
	 * @throws InvalidControlInputException naming the field, with the form to use
	 */
	static Subject subject(String text) {
		try {
			return Subject.parse(text);
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidControlInputException("subject", text.strip(), ex.getMessage(), SUBJECT_EXAMPLE);
		}
	}

	private static String ipId(String field, String text, ClientIpResolver ips) {
		try {
			return ips.idOf(text);
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidControlInputException(field, text.strip(), ex.getMessage(),
					"198.51.100.7 or " + ips.example(false));
		}
	}

}
