package io.github.ratelimit.client;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * Reads the few forms of the rate-limit headers by hand, so that the client needs no
 * structured-field library at runtime: Lists and Dictionaries of RFC 9651 (members,
 * parameters, sf-strings, integers), delta-seconds and HTTP dates. Every method answers
 * {@code null} or an empty result for a value it cannot read; none throws.
 */
final class HeaderValues {

	/** Longer field values are ignored: no rate-limit header needs that much. */
	static final int MAX_LENGTH = 8192;

	/** Seconds above this are an epoch (GitHub's reset), not a delay of 31 years. */
	private static final long EPOCH_SECONDS = 1_000_000_000L;

	/** Above this, an epoch in milliseconds. */
	private static final long EPOCH_MILLIS = 1_000_000_000_000L;

	/** RFC 9651 integers have at most 15 digits. */
	private static final int MAX_DIGITS = 15;

	private HeaderValues() {
	}

	/**
	 * Joins the field lines of a header as RFC 9110 combines them, skipping lines too
	 * long to be sensible.
	 */
	static @Nullable String joined(List<String> lines) {
		if (lines == null || lines.isEmpty()) {
			return null;
		}
		StringBuilder joined = new StringBuilder();
		for (String line : lines) {
			if (line != null && !line.isBlank() && line.length() <= MAX_LENGTH) {
				if (!joined.isEmpty()) {
					joined.append(", ");
				}
				joined.append(line);
			}
		}
		return joined.isEmpty() ? null : joined.toString();
	}

	/**
	 * The members of a structured-field List or Dictionary, read leniently: commas and
	 * semicolons inside sf-strings are kept, a member that cannot be read is skipped.
	 */
	static List<Member> members(@Nullable String value) {
		List<Member> members = new ArrayList<>();
		if (value == null) {
			return members;
		}
		for (String part : split(value, ',')) {
			Member member = member(part);
			if (member != null) {
				members.add(member);
			}
		}
		return members;
	}

	private static @Nullable Member member(String text) {
		List<String> parts = split(text, ';');
		if (parts.isEmpty()) {
			return null;
		}
		String head = parts.get(0).trim();
		if (head.isEmpty()) {
			return null;
		}
		@Nullable String key = null;
		String item = head;
		int equals = head.indexOf('=');
		if (!head.startsWith("\"") && equals > 0) {
			// a Dictionary member: key=value
			key = head.substring(0, equals).trim();
			item = head.substring(equals + 1).trim();
		}
		String bare = bareItem(item);
		if (bare == null) {
			return null;
		}
		Map<String, String> parameters = new LinkedHashMap<>();
		for (int i = 1; i < parts.size(); i++) {
			String parameter = parts.get(i).trim();
			int at = parameter.indexOf('=');
			String name = ((at < 0) ? parameter : parameter.substring(0, at)).trim();
			String raw = (at < 0) ? "?1" : parameter.substring(at + 1).trim();
			String parameterValue = bareItem(raw);
			if (!name.isEmpty() && parameterValue != null) {
				parameters.putIfAbsent(name, parameterValue);
			}
		}
		return new Member(key, bare, parameters);
	}

	/** An sf-string unquoted, or any other bare item as written. */
	private static @Nullable String bareItem(String item) {
		if (item.isEmpty()) {
			return null;
		}
		if (item.charAt(0) != '"') {
			return item;
		}
		StringBuilder value = new StringBuilder(item.length());
		for (int i = 1; i < item.length(); i++) {
			char c = item.charAt(i);
			if (c == '\\' && i + 1 < item.length()) {
				value.append(item.charAt(++i));
			}
			else if (c == '"') {
				return (i == item.length() - 1) ? value.toString() : null;
			}
			else {
				value.append(c);
			}
		}
		// an sf-string that never closes
		return null;
	}

	/** Splits at a separator outside sf-strings. */
	private static List<String> split(String value, char separator) {
		List<String> parts = new ArrayList<>();
		boolean quoted = false;
		int start = 0;
		for (int i = 0; i < value.length(); i++) {
			char c = value.charAt(i);
			if (quoted && c == '\\') {
				i++;
			}
			else if (c == '"') {
				quoted = !quoted;
			}
			else if (!quoted && c == separator) {
				parts.add(value.substring(start, i));
				start = i + 1;
			}
		}
		parts.add(value.substring(start));
		return parts;
	}

	/**
	 * A non-negative integer of at most 15 digits, or {@code null}. The first member of a
	 * List counts ({@code 100;w=60} reads 100), so older drafts' forms read too.
	 */
	static @Nullable Long integer(@Nullable String value) {
		if (value == null) {
			return null;
		}
		String text = value.trim();
		int end = firstSeparator(text);
		text = text.substring(0, end).trim();
		if (text.isEmpty() || text.length() > MAX_DIGITS) {
			return null;
		}
		for (int i = 0; i < text.length(); i++) {
			if (text.charAt(i) < '0' || text.charAt(i) > '9') {
				return null;
			}
		}
		return Long.parseLong(text);
	}

	private static int firstSeparator(String text) {
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if (c == ',' || c == ';') {
				return i;
			}
		}
		return text.length();
	}

	/**
	 * A non-negative number of seconds, whole or decimal ({@code 23}, {@code 1.5}),
	 * rounded up to the millisecond, or {@code null}.
	 */
	static @Nullable Duration seconds(@Nullable String value) {
		if (value == null) {
			return null;
		}
		String text = value.trim();
		text = text.substring(0, firstSeparator(text)).trim();
		if (text.isEmpty() || text.length() > MAX_DIGITS + 4) {
			return null;
		}
		int dots = 0;
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if (c == '.') {
				dots++;
			}
			else if (c < '0' || c > '9') {
				return null;
			}
		}
		if (dots > 1 || text.charAt(0) == '.' || text.charAt(text.length() - 1) == '.') {
			return null;
		}
		BigDecimal millis = new BigDecimal(text).movePointRight(3).setScale(0, RoundingMode.CEILING);
		return Duration.ofMillis(millis.longValueExact());
	}

	/**
	 * A reset as delta-seconds, or as an epoch when the number is too large to be a delay
	 * (GitHub's {@code X-RateLimit-Reset: 1767225600}; milliseconds too); a reset in the
	 * past is zero.
	 */
	static @Nullable Duration reset(@Nullable String value, Instant now) {
		Duration seconds = seconds(value);
		if (seconds == null) {
			return null;
		}
		long whole = seconds.toSeconds();
		if (whole > EPOCH_MILLIS) {
			return untilNow(Instant.ofEpochMilli(whole), now);
		}
		if (whole > EPOCH_SECONDS) {
			return untilNow(Instant.ofEpochMilli(seconds.toMillis()), now);
		}
		return seconds;
	}

	/**
	 * {@code Retry-After} (RFC 9110 §10.2.3): delta-seconds or an HTTP date
	 * ({@code Wed, 21 Oct 2026 07:28:00 GMT}); a date in the past is zero.
	 */
	static @Nullable Duration retryAfter(@Nullable String value, Instant now) {
		if (value == null || value.length() > MAX_LENGTH) {
			return null;
		}
		String text = value.trim();
		if (!text.isEmpty() && text.charAt(0) >= '0' && text.charAt(0) <= '9') {
			return seconds(text);
		}
		try {
			Instant date = ZonedDateTime.parse(text, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
			return untilNow(date, now);
		}
		catch (DateTimeParseException ex) {
			return null;
		}
	}

	private static Duration untilNow(Instant instant, Instant now) {
		Duration until = Duration.between(now, instant);
		return until.isNegative() ? Duration.ZERO : until;
	}

	/**
	 * A member of a structured-field List ({@code "burst";r=0;t=23}, no key) or
	 * Dictionary ({@code remaining=0}, key {@code remaining}).
	 *
	 * @param key the Dictionary key, or {@code null} for a List member
	 * @param value the bare item, an sf-string unquoted
	 * @param parameters the parameters' bare items, sf-strings unquoted, by name
	 */
	record Member(@Nullable String key, String value, Map<String, String> parameters) {

		@Nullable Long integerParameter(String name) {
			return integer(this.parameters.get(name));
		}

	}

}
