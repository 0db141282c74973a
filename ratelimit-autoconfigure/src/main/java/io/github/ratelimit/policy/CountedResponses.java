package io.github.ratelimit.policy;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.StringJoiner;

import org.jspecify.annotations.Nullable;

/**
 * Which responses a limit counts ({@code ratelimit.groups.<group>.count},
 * {@code @RateLimited(count = ...)}): every one (the default), failures only, or the
 * statuses listed. A limit that counts only some responses still takes its token when the
 * request starts, so a burst is decided as exactly as any other; the token is given back
 * when the response's final status is not one it counts.
 * <p>
 * Values: {@code all}; {@code failures} (any 4xx or 5xx); {@code auth-failures} (401 and
 * 403); or statuses, {@code 401, 403, 429}. The limiter's own refusals never took a
 * token, so counting 429 only counts the application's own.
 */
public final class CountedResponses {

	/** Counts every response: a limit as it always was. */
	public static final CountedResponses ALL = new CountedResponses("all", null);

	/** Counts 4xx and 5xx responses. */
	public static final CountedResponses FAILURES = new CountedResponses("failures", range(400, 599));

	/** Counts 401 and 403 responses. */
	public static final CountedResponses AUTH_FAILURES = new CountedResponses("auth-failures", statuses(401, 403));

	/** A valid value, for error messages. */
	public static final String EXAMPLE = "failures (or auth-failures, or 401, 403)";

	private final String spec;

	/** The statuses counted; {@code null} for every response. */
	private final @Nullable BitSet statuses;

	private CountedResponses(String spec, @Nullable BitSet statuses) {
		this.spec = spec;
		this.statuses = statuses;
	}

	/** The keywords, each a value of its own. */
	static final List<CountedResponses> KEYWORDS = List.of(ALL, FAILURES, AUTH_FAILURES);

	/**
	 * Reads the configured values: one keyword, or statuses.
	 * @param values {@code [all]}, {@code [failures]}, {@code [auth-failures]}, or
	 * statuses such as {@code [401, 403]}; empty for {@link #ALL}
	 * @return what they count
	 * @throws IllegalArgumentException naming what is wrong
	 */
	public static CountedResponses parse(List<String> values) {
		List<CountedResponse> parsed = new ArrayList<>(values.size());
		for (String value : values) {
			parsed.add(CountedResponse.parse(value));
		}
		return of(parsed);
	}

	/**
	 * Puts values read one by one together: one keyword, or statuses.
	 * @param values one keyword, or statuses; empty for {@link #ALL}
	 * @return what they count
	 * @throws IllegalArgumentException when a keyword is listed with other values
	 */
	public static CountedResponses of(List<CountedResponse> values) {
		if (values.isEmpty()) {
			return ALL;
		}
		CountedResponses keyword = values.get(0).keyword();
		if (values.size() == 1 && keyword != null) {
			return keyword;
		}
		BitSet statuses = new BitSet(600);
		StringJoiner spec = new StringJoiner(", ");
		for (CountedResponse value : values) {
			if (value.keyword() != null) {
				throw new IllegalArgumentException("'" + value + "' is neither all, failures, auth-failures nor an "
						+ "HTTP status; statuses are listed alone, without a keyword");
			}
			if (!statuses.get(value.status())) {
				statuses.set(value.status());
				spec.add(Integer.toString(value.status()));
			}
		}
		return new CountedResponses(spec.toString(), statuses);
	}

	/** Whether every response counts (the limit gives nothing back). */
	public boolean all() {
		return this.statuses == null;
	}

	/** Whether a response of this status counts against the limit. */
	public boolean counts(int status) {
		return this.statuses == null || (status >= 0 && this.statuses.get(status));
	}

	/** The value as configured, normalised ({@code failures}, {@code 401, 403}). */
	public String spec() {
		return this.spec;
	}

	@Override
	public boolean equals(@Nullable Object other) {
		return this == other || (other instanceof CountedResponses counted && this.spec.equals(counted.spec));
	}

	@Override
	public int hashCode() {
		return this.spec.hashCode();
	}

	@Override
	public String toString() {
		return this.spec;
	}

	private static BitSet range(int from, int to) {
		BitSet statuses = new BitSet(600);
		statuses.set(from, to + 1);
		return statuses;
	}

	private static BitSet statuses(int... codes) {
		BitSet statuses = new BitSet(600);
		for (int code : codes) {
			statuses.set(code);
		}
		return statuses;
	}

}
