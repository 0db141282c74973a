package io.github.ratelimit.control;

import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.jspecify.annotations.Nullable;

/**
 * An expiry as an operator writes it: a duration from now in the forms Spring Boot binds
 * ({@code 30m}, {@code 1h}, {@code 7d}, a number of milliseconds, ISO-8601
 * {@code PT30M}), or an ISO-8601 instant.
 */
final class Expiry {

	/** Boot's simple duration form: a number and a unit of at most two letters. */
	private static final Pattern SIMPLE = Pattern.compile("^([+-]?\\d+)([a-zA-Z]{0,2})$");

	private static final Pattern ISO8601 = Pattern.compile("^[+-]?[pP].*$");

	private Expiry() {
	}

	/**
	 * Reads an expiry.
	 * @param field the input field, for the message
	 * @param text the expiry, stripped and not empty
	 * @param now the time, to the millisecond
	 * @return when it ends, in the future and at most {@link ControlInput#MAX_EXPIRY}
	 * ahead
	 * @throws InvalidControlInputException otherwise
	 */
	static Instant parse(String field, String text, Instant now) {
		Duration duration = duration(text);
		if (duration != null) {
			if (duration.isNegative() || duration.isZero()) {
				throw new InvalidControlInputException(field, text, "a duration from now must be positive",
						ControlInput.EXPIRY_EXAMPLE);
			}
			if (duration.compareTo(ControlInput.MAX_EXPIRY) > 0) {
				throw new InvalidControlInputException(field, text, "an expiry lies at most "
						+ ControlInput.MAX_EXPIRY.toDays() + " days ahead; leave it out for one that never ends",
						ControlInput.EXPIRY_EXAMPLE);
			}
			return now.plus(duration);
		}
		Instant instant;
		try {
			instant = Instant.parse(text);
		}
		catch (DateTimeParseException ex) {
			throw new InvalidControlInputException(field, text,
					"an expiry is a duration from now (30m, 1h, 7d, PT1H) or an ISO-8601 instant in UTC",
					ControlInput.EXPIRY_EXAMPLE);
		}
		return ControlInput.expiry(field, instant.truncatedTo(ChronoUnit.MILLIS), now);
	}

	/**
	 * The duration the text is, as Boot's {@code DurationStyle.detectAndParse} reads it,
	 * or {@code null} when it is none (or one beyond what a {@link Duration} holds): then
	 * it may be an instant.
	 */
	static @Nullable Duration duration(String text) {
		try {
			Matcher simple = SIMPLE.matcher(text);
			if (simple.matches()) {
				ChronoUnit unit = unit(simple.group(2));
				return (unit != null) ? Duration.of(Long.parseLong(simple.group(1)), unit) : null;
			}
			return ISO8601.matcher(text).matches() ? Duration.parse(text) : null;
		}
		catch (ArithmeticException | NumberFormatException | DateTimeParseException ex) {
			return null;
		}
	}

	private static @Nullable ChronoUnit unit(String suffix) {
		return switch (suffix.toLowerCase(Locale.ROOT)) {
			case "ns" -> ChronoUnit.NANOS;
			case "us" -> ChronoUnit.MICROS;
			case "", "ms" -> ChronoUnit.MILLIS;
			case "s" -> ChronoUnit.SECONDS;
			case "m" -> ChronoUnit.MINUTES;
			case "h" -> ChronoUnit.HOURS;
			case "d" -> ChronoUnit.DAYS;
			default -> null;
		};
	}

}
