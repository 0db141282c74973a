package io.github.ratelimit.control;

import java.time.Duration;
import java.time.Instant;

import org.jspecify.annotations.Nullable;

import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.policy.PolicyTable;

/**
 * The checks runtime control makes on what an operator gives it, before anything is
 * written: a stored value must be one every instance can apply for as long as it lives.
 */
public final class ControlInput {

	/**
	 * The furthest ahead an expiry may lie. Further is a typo (or an attempt to overflow
	 * the clock arithmetic of every instance); an override meant to stay has no expiry.
	 */
	public static final Duration MAX_EXPIRY = Duration.ofDays(3650);

	/** Longer ids are refused: they are ids, not documents. */
	public static final int MAX_ID_LENGTH = 256;

	/** A valid expiry, for messages. */
	public static final String EXPIRY_EXAMPLE = "1h, 7d, PT30M or 2030-01-01T00:00:00Z";

	private ControlInput() {
	}

	/**
	 * Checks an expiry.
	 * @param field the input field, for the message
	 * @param expiresAt the expiry, {@code null} for never
	 * @param now the time
	 * @return the expiry
	 * @throws InvalidControlInputException unless it lies in the future and at most
	 * {@link #MAX_EXPIRY} ahead
	 */
	public static @Nullable Instant expiry(String field, @Nullable Instant expiresAt, Instant now) {
		if (expiresAt == null) {
			return null;
		}
		if (!expiresAt.isAfter(now)) {
			throw new InvalidControlInputException(field, expiresAt,
					"an expiry must lie in the future (it is now " + now + "); to end something now, delete it",
					EXPIRY_EXAMPLE);
		}
		if (expiresAt.isAfter(now.plus(MAX_EXPIRY))) {
			throw new InvalidControlInputException(field, expiresAt, "an expiry lies at most " + MAX_EXPIRY.toDays()
					+ " days ahead; leave it out for one that never ends", EXPIRY_EXAMPLE);
		}
		return expiresAt;
	}

	/**
	 * Checks a user name, org id or client address group as an id.
	 * @param field the input field, for the message
	 * @param id the id
	 * @param example a valid id
	 * @return the id without surrounding white space
	 * @throws InvalidControlInputException when it is empty, too long or holds control
	 * characters
	 */
	public static String id(String field, String id, String example) {
		String trimmed = id.strip();
		if (trimmed.isEmpty()) {
			throw new InvalidControlInputException(field, id, "an id must not be empty", example);
		}
		if (trimmed.length() > MAX_ID_LENGTH) {
			throw new InvalidControlInputException(field, trimmed.substring(0, 32) + "…",
					"an id is at most " + MAX_ID_LENGTH + " characters", example);
		}
		if (trimmed.chars().anyMatch(Character::isISOControl)) {
			throw new InvalidControlInputException(field, trimmed.replaceAll("\\p{Cntrl}", "?"),
					"an id holds no control characters", example);
		}
		return trimmed;
	}

	/**
	 * Checks the group of an override.
	 * @throws InvalidControlInputException unless it is a configured endpoint group,
	 * {@code default} or {@code all}
	 */
	static void group(PolicyTable table, String group) {
		if (!table.groups().contains(group) && !Policy.ALL_GROUPS.equals(group)) {
			throw new InvalidControlInputException("group", group, "unknown endpoint group; known groups are "
					+ table.groups() + " and " + Policy.ALL_GROUPS + " (a quota over every group)", "default");
		}
	}

	/** A valid id of a dimension, for messages. */
	static String exampleId(Dimension dimension) {
		return switch (dimension) {
			case USER -> "alice";
			case ORG -> "acme";
			case TOKEN -> "t-0123456789abcdef0123456789abcdef";
			case IP -> "198.51.100.7";
			case ACCOUNT -> "#3q2-7wEtmXWmJvGQHz9Nkg";
			case KEY -> "acme-repo";
			case SERVICE -> "all";
		};
	}

	/**
	 * An instant in epoch milliseconds, saturated at the ends of {@code long}: a stored
	 * expiry too far out for milliseconds (written before expiries were checked, or by
	 * hand) means never, not an {@link ArithmeticException} on every refresh.
	 */
	static long epochMillis(Instant instant) {
		long seconds = instant.getEpochSecond();
		if (seconds >= Long.MAX_VALUE / 1000) {
			return Long.MAX_VALUE;
		}
		if (seconds <= Long.MIN_VALUE / 1000) {
			return Long.MIN_VALUE;
		}
		return instant.toEpochMilli();
	}

}
