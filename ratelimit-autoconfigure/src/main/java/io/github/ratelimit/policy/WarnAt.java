package io.github.ratelimit.policy;

/**
 * A soft limit: the share of a limit used from which responses carry a warning
 * ({@code warn-at: 80%}).
 *
 * @param percent the share, 1 to 99
 */
public record WarnAt(int percent) {

	/** A valid value, for messages. */
	public static final String EXAMPLE = "80%";

	public WarnAt {
		if (percent < 1 || percent > 99) {
			throw new IllegalArgumentException("a soft limit is a share of the limit between 1% and 99%");
		}
	}

	/**
	 * Parses {@code 80%} or {@code 80}.
	 * @param text the configured value
	 * @return the soft limit
	 * @throws IllegalArgumentException with a reason a user can act on
	 */
	public static WarnAt parse(String text) {
		String digits = text.strip();
		if (digits.endsWith("%")) {
			digits = digits.substring(0, digits.length() - 1).strip();
		}
		int percent;
		try {
			percent = Integer.parseInt(digits);
		}
		catch (NumberFormatException ex) {
			throw new IllegalArgumentException("a soft limit is a share of the limit between 1% and 99%");
		}
		return new WarnAt(percent);
	}

	@Override
	public String toString() {
		return this.percent + "%";
	}

}
