package io.github.ratelimit.policy;

/**
 * A configured limit, group, tier, address range or other rate-limit property that cannot
 * work. Startup fails with it, and a failure analyzer turns it into a message that names
 * the property and shows a valid value.
 */
public class InvalidRateLimitConfigurationException extends RuntimeException {

	private final String property;

	private final Object value;

	private final String reason;

	private final String example;

	/**
	 * Creates an exception.
	 * @param property the full property name ({@code ratelimit.tiers.premium.user.auth})
	 * @param value the configured value
	 * @param reason what is wrong
	 * @param example a valid value for that property
	 */
	public InvalidRateLimitConfigurationException(String property, Object value, String reason, String example) {
		super("Invalid value '" + value + "' for property '" + property + "': " + reason + " (for example: " + example
				+ ")");
		this.property = property;
		this.value = value;
		this.reason = reason;
		this.example = example;
	}

	public String getProperty() {
		return this.property;
	}

	public Object getValue() {
		return this.value;
	}

	public String getReason() {
		return this.reason;
	}

	public String getExample() {
		return this.example;
	}

}
