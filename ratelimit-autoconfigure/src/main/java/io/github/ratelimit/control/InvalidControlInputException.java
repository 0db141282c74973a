package io.github.ratelimit.control;

/**
 * A value an operator gave runtime control (through the {@code ratelimits} endpoint) that
 * cannot work: an expiry in the past or too far ahead, a limit the parser refuses, an
 * unknown group or tier, an id the limiter never gives a caller. Nothing was written; the
 * endpoint answers 400 with the message, which names the field and shows a valid value.
 */
public class InvalidControlInputException extends IllegalArgumentException {

	private final String field;

	private final String reason;

	private final String example;

	/**
	 * Creates an exception.
	 * @param field the input field ({@code expires}, {@code limit}, {@code id},
	 * {@code subject}...)
	 * @param value the value given
	 * @param reason what is wrong
	 * @param example a valid value for that field
	 */
	public InvalidControlInputException(String field, Object value, String reason, String example) {
		super("Invalid value '" + value + "' for '" + field + "': " + reason + " (for example: " + example + ")");
		this.field = field;
		this.reason = reason;
		this.example = example;
	}

	/** The input field the value was given for. */
	public String getField() {
		return this.field;
	}

	/** What is wrong with the value. */
	public String getReason() {
		return this.reason;
	}

	/** A valid value for the field. */
	public String getExample() {
		return this.example;
	}

}
