package io.github.ratelimit.policy;

import java.util.Locale;

import org.jspecify.annotations.Nullable;

/**
 * One value of a list of counted responses, as configured: a keyword ({@code all},
 * {@code failures}, {@code auth-failures}) or one HTTP status ({@code 401}).
 * {@link CountedResponses#of} puts a list of them together.
 *
 * @param keyword what a keyword counts, or {@code null} for a status
 * @param status the HTTP status (100 to 599), or 0 for a keyword
 */
public record CountedResponse(@Nullable CountedResponses keyword, int status) {

	public CountedResponse {
		if ((keyword == null) == (status == 0)) {
			throw new IllegalArgumentException("a counted response is a keyword or a status");
		}
		if (keyword == null && (status < 100 || status > 599)) {
			throw new IllegalArgumentException(status + " is not an HTTP status (100 to 599)");
		}
	}

	/**
	 * Reads one value.
	 * @param text {@code all}, {@code failures}, {@code auth-failures} (in any case) or
	 * an HTTP status
	 * @return the value
	 * @throws IllegalArgumentException naming what is wrong
	 */
	public static CountedResponse parse(String text) {
		String value = text.strip();
		for (CountedResponses keyword : CountedResponses.KEYWORDS) {
			if (keyword.spec().equals(value.toLowerCase(Locale.ROOT))) {
				return new CountedResponse(keyword, 0);
			}
		}
		int status;
		try {
			status = Integer.parseInt(value);
		}
		catch (NumberFormatException ex) {
			throw new IllegalArgumentException("'" + value + "' is neither all, failures, auth-failures nor an "
					+ "HTTP status; statuses are listed alone, without a keyword");
		}
		return new CountedResponse(null, status);
	}

	@Override
	public String toString() {
		return (this.keyword != null) ? this.keyword.spec() : Integer.toString(this.status);
	}

}
