package io.github.ratelimit.web;

import java.util.List;
import java.util.Locale;

import org.jspecify.annotations.Nullable;

import io.github.ratelimit.policy.CountedResponses;
import io.github.ratelimit.policy.InlineLimit;
import io.github.ratelimit.policy.Limit;
import io.github.ratelimit.policy.LimitParser;

/**
 * A limit of a handler's or a functional route's own ({@code @RateLimited(limit, count,
 * per)} or the route attributes that say the same), checked alike for both: a limit and
 * its counted responses must parse, {@code count} and {@code per} need a limit, and the
 * request's cost must fit in it (or every request would be answered 403).
 */
final class OwnLimits {

	private OwnLimits() {
	}

	/**
	 * The own limit, or {@code null} when none is declared.
	 * @param id the handler's or route's id, naming the limit's buckets
	 * @param owner {@code handler} or {@code route}, for messages
	 * @param spec the declared limit, or {@code null} for none
	 * @param count the declared counted responses (empty: every response)
	 * @param per whom it counts per (empty: the verified user, else the client address)
	 * @param cost the request's own cost (0: its group's)
	 * @param errors reports an invalid part
	 */
	static @Nullable InlineLimit of(String id, String owner, @Nullable String spec, List<String> count, String per,
			long cost, Errors errors) {
		CountedResponses counts;
		try {
			counts = CountedResponses.parse(count);
		}
		catch (IllegalArgumentException ex) {
			throw errors.invalid(Part.COUNT, String.join(", ", count), ex.getMessage(), "failures");
		}
		if (spec == null || spec.isBlank()) {
			if (!counts.all()) {
				throw errors.invalid(Part.COUNT, counts.spec(),
						"count shapes the " + owner + "'s own limit, and it declares none", counts.spec());
			}
			if (!per.isEmpty()) {
				throw errors.invalid(Part.PER, per,
						"per says whom the " + owner + "'s own limit counts per, and it declares none", per);
			}
			return null;
		}
		Limit limit;
		try {
			limit = LimitParser.parse(spec);
		}
		catch (IllegalArgumentException ex) {
			throw errors.invalid(Part.LIMIT, spec, ex.getMessage(), LimitParser.EXAMPLE);
		}
		if (!limit.blocked() && cost > limit.maxCost()) {
			// every request would be answered 403: a mistake to report at startup, not on
			// each request
			throw errors.invalid(Part.COST, cost,
					"a request would cost more than the " + limit.maxCost() + " tokens that its own limit ("
							+ limit.spec() + ") can ever hold; lower the cost or raise the limit",
					limit.maxCost());
		}
		return new InlineLimit(id, limit, counts, per);
	}

	/** The part of an own limit that is invalid. */
	enum Part {

		LIMIT, COUNT, PER, COST;

		/** Its name in {@code @RateLimited}: {@code limit}, {@code count}... */
		String word() {
			return name().toLowerCase(Locale.ROOT);
		}

		/** Whether it shapes a limit, so that a valid example declares one. */
		boolean shapesLimit() {
			return this == COUNT || this == PER;
		}

	}

	/**
	 * Reports an invalid part in the declaring side's own words.
	 */
	interface Errors {

		/**
		 * The error to throw.
		 * @param part the invalid part
		 * @param value the invalid value
		 * @param reason what is wrong
		 * @param example a valid value of that part
		 * @return the exception
		 */
		RuntimeException invalid(Part part, Object value, String reason, Object example);

	}

}
