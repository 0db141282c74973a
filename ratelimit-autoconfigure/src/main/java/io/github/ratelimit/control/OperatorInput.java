package io.github.ratelimit.control;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Locale;

import org.jspecify.annotations.Nullable;

import io.github.ratelimit.identity.ClientIpResolver;
import io.github.ratelimit.policy.Classification;
import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.LimitParser;

/**
 * What an operator gives runtime control as text (the parameters of the
 * {@code ratelimits} endpoint), read into the model's types: whom a call names, a group,
 * a limit, a rule, an expiry. A value that cannot work is refused with an
 * {@link InvalidControlInputException} that names the field and shows a valid value,
 * before anything is written; whatever the limiter would never match is refused with the
 * form to use, rather than set and silently never applied.
 */
public final class OperatorInput {

	/** Subjects as an operator writes them, for messages. */
	public static final String SUBJECT_EXAMPLE = "ip:198.51.100.7, ip:2001:db8:5::/64, user:alice, org:acme, "
			+ "key:<sha-256>";

	private final ClientIpResolver ips;

	private final Clock clock;

	/**
	 * Creates the reader.
	 * @param ips how the limiter groups client addresses: an {@code ip} id is read as the
	 * group it counts the address in (an IPv6 address its /64 by default)
	 * @param clock the clock expiries are read against
	 */
	public OperatorInput(ClientIpResolver ips, Clock clock) {
		this.ips = ips;
		this.clock = clock;
	}

	/**
	 * Whom a call names by dimension and id, as the limiter keys it: {@code key} (or
	 * {@code token}) ids are token ids, whichever way the key was named; {@code ip} ids
	 * the client group an address is counted in.
	 * @param dimension {@code user}, {@code org}, {@code key} (or {@code token}) or
	 * {@code ip}
	 * @param id the id; for a key its SHA-256 or token id; for ip an address or its group
	 */
	public Subject identity(@Nullable String dimension, @Nullable String id) {
		String kind = required("dimension", dimension, "user, org, key or ip").strip().toLowerCase(Locale.ROOT);
		String given = required("id", id, "alice");
		String example = switch (kind) {
			case "user" -> "alice";
			case "org" -> "acme";
			case "key", "token" -> "the key's SHA-256 (64 hex digits) or its token id (t- and 32 hex digits)";
			case "ip" -> "198.51.100.7 or " + this.ips.example(false);
			default -> throw new InvalidControlInputException("dimension", dimension,
					"unknown dimension; use user, org, key (an API key's SHA-256 or token id) or ip", "user");
		};
		String checked = ControlInput.id("id", given, example);
		if ("ip".equals(kind)) {
			return Subject.of(Dimension.IP, ipGroup("id", checked));
		}
		try {
			return Subject.parse(("token".equals(kind) ? "key" : kind) + ":" + checked);
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidControlInputException("id", checked, ex.getMessage(), example);
		}
	}

	/**
	 * Whom a ban is lifted from, as bans are kept: {@code ip:203.0.113.7},
	 * {@code user:alice}, {@code key:<sha-256>}; a bare address means {@code ip:}, and an
	 * address is read as the group it is counted in.
	 */
	public Subject banned(@Nullable String subject) {
		String trimmed = ControlInput.id("subject", required("subject", subject, SUBJECT_EXAMPLE), SUBJECT_EXAMPLE);
		int colon = trimmed.indexOf(':');
		String prefix = (colon > 0) ? trimmed.substring(0, colon).toLowerCase(Locale.ROOT) : "";
		if (prefix.equals("user") || prefix.equals("org") || prefix.equals("key")) {
			return ruleSubject(trimmed);
		}
		String address = prefix.equals("ip") ? trimmed.substring(colon + 1) : trimmed;
		return Subject.of(Dimension.IP, ipGroup("subject", address));
	}

	/**
	 * Whom a rule names: {@code user:}, {@code org:}, {@code key:}, or an address or CIDR
	 * range, matched against the client address itself (not its group).
	 */
	public Subject ruled(@Nullable String subject) {
		return ruleSubject(required("subject", subject, SUBJECT_EXAMPLE));
	}

	/**
	 * An allow or deny rule as an operator sets it: a subject, for an allow rule
	 * optionally with a tier (given apart or as {@code "user:bot as partner"}, as the
	 * properties take it), and an expiry.
	 */
	public AccessRule rule(AccessRule.Access access, @Nullable String subject, @Nullable String tier,
			@Nullable String expires) {
		String text = required("subject", subject, SUBJECT_EXAMPLE).strip();
		Instant expiresAt = expiry(expires);
		String ruleTier = (tier != null && !tier.isBlank()) ? tier.strip() : null;
		int as = text.lastIndexOf(" as ");
		if (as >= 0) {
			ruleTier = (ruleTier != null) ? ruleTier : text.substring(as + 4).strip();
			text = text.substring(0, as);
		}
		if (access == AccessRule.Access.DENY && ruleTier != null) {
			throw new InvalidControlInputException("tier", ruleTier, "a deny rule takes no tier (a tier is for allow "
					+ "rules: the caller gets it instead of bypassing limits)", "leave it out");
		}
		if (ruleTier != null && ruleTier.isEmpty()) {
			throw new InvalidControlInputException("tier", "", "'as' needs a tier name", "premium");
		}
		return new AccessRule(access, ruleSubject(text), ruleTier, expiresAt);
	}

	/** The group of an override: {@code default} when none is given. */
	public String group(@Nullable String group) {
		return (group != null && !group.isBlank()) ? group.strip() : Classification.DEFAULT_GROUP;
	}

	/** The limit of an override, as the properties take it (parsed when it is set). */
	public String limit(@Nullable String limit) {
		return required("limit", limit, LimitParser.EXAMPLE);
	}

	/**
	 * An expiry as a duration from now ({@code 1h}, {@code 7d}, {@code PT30M}) or an
	 * instant, in the future and at most {@link ControlInput#MAX_EXPIRY} ahead;
	 * {@code null} for never. Computed without overflow: a huge value is refused, not an
	 * {@link ArithmeticException}.
	 */
	public @Nullable Instant expiry(@Nullable String expires) {
		if (expires == null || expires.isBlank()) {
			return null;
		}
		// to the millisecond, as stores keep it: the answer shows what every instance
		// lists
		return Expiry.parse("expires", expires.strip(), this.clock.instant().truncatedTo(ChronoUnit.MILLIS));
	}

	private static Subject ruleSubject(String text) {
		try {
			return Subject.parse(text);
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidControlInputException("subject", text.strip(), ex.getMessage(), SUBJECT_EXAMPLE);
		}
	}

	private String ipGroup(String field, String text) {
		try {
			return this.ips.idOf(text);
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidControlInputException(field, text.strip(), ex.getMessage(),
					"198.51.100.7 or " + this.ips.example(false));
		}
	}

	private static String required(String field, @Nullable String value, String example) {
		if (value == null || value.isBlank()) {
			throw new InvalidControlInputException(field, "", "a value is required", example);
		}
		return value;
	}

}
