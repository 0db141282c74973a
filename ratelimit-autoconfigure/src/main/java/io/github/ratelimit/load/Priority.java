package io.github.ratelimit.load;

import java.util.Locale;

/**
 * How important a tier's or a group's traffic is when the service sheds load: from 0 to
 * 100, named {@code low} (25), {@code normal} (50, the default), {@code high} (75) and
 * {@code critical} (100). Critical traffic is never shed.
 *
 * @param value from 0 to 100
 */
public record Priority(int value) implements Comparable<Priority> {

	/** Traffic shed first. */
	public static final Priority LOW = new Priority(25);

	/** Traffic of tiers and groups that name no priority. */
	public static final Priority NORMAL = new Priority(50);

	/** Traffic shed last. */
	public static final Priority HIGH = new Priority(75);

	/** Traffic never shed. */
	public static final Priority CRITICAL = new Priority(100);

	/**
	 * Checks the value.
	 * @throws IllegalArgumentException when it is outside 0 to 100
	 */
	public Priority {
		if (value < 0 || value > 100) {
			throw new IllegalArgumentException("a priority is low, normal, high, critical or a number from 0 to 100");
		}
	}

	/**
	 * Reads a priority: a name or a number from 0 to 100.
	 * @param text the text
	 * @return the priority
	 * @throws IllegalArgumentException when it is neither
	 */
	public static Priority parse(String text) {
		String value = text.trim().toLowerCase(Locale.ROOT);
		return switch (value) {
			case "low" -> LOW;
			case "normal" -> NORMAL;
			case "high" -> HIGH;
			case "critical" -> CRITICAL;
			default -> {
				try {
					yield new Priority(Integer.parseInt(value));
				}
				catch (NumberFormatException ex) {
					throw new IllegalArgumentException(
							"a priority is low, normal, high, critical or a number from 0 to 100");
				}
			}
		};
	}

	/** Whether this priority is never shed. */
	public boolean critical() {
		return this.value >= CRITICAL.value;
	}

	@Override
	public int compareTo(Priority other) {
		return Integer.compare(this.value, other.value);
	}

	@Override
	public String toString() {
		return switch (this.value) {
			case 25 -> "low";
			case 50 -> "normal";
			case 75 -> "high";
			case 100 -> "critical";
			default -> Integer.toString(this.value);
		};
	}

}
