package io.github.ratelimit.http;

import java.util.Locale;

import io.github.ratelimit.core.PolicyState;
import io.github.ratelimit.policy.Bandwidth;
import io.github.ratelimit.policy.CalendarQuota;
import io.github.ratelimit.policy.Classification;
import io.github.ratelimit.policy.ConcurrencyLimit;
import io.github.ratelimit.policy.Policy;

/**
 * The words of a refusal by a budget of the service ({@code ratelimit.service}). The
 * service is busy, which is no caller's fault, so the detail names the endpoints and
 * their budget for all callers together rather than the caller, for example
 * {@code The 'export' endpoints are busy: they take at most 1000 requests per minute from
 * all callers together}.
 */
final class ServiceBusyDetail {

	/** The {@code code} member of a refusal by a budget of the service. */
	static final String CODE = "service_limit_exceeded";

	private ServiceBusyDetail() {
	}

	/**
	 * Appends the detail, without its final period.
	 * @param detail where to append
	 * @param binding the budget of the service that refused
	 * @param group the group of the refused request
	 */
	static void append(StringBuilder detail, PolicyState binding, String group) {
		Policy policy = binding.policy();
		boolean wholeApi = Policy.ALL_GROUPS.equals(policy.group());
		if (wholeApi) {
			detail.append("This API is busy: it ");
		}
		else if (Classification.DEFAULT_GROUP.equals(group) || !policy.group().equals(group)) {
			// a budget the group shares with others through default: these endpoints are
			// not all it covers
			detail.append("These endpoints are busy: they ");
		}
		else {
			detail.append("The '")
				.append(ProblemDetailsBodyWriter.capped(group, ProblemDetailsBodyWriter.MAX_ID_LENGTH))
				.append("' endpoints are busy: they ");
		}
		Bandwidth bandwidth = binding.bandwidth();
		long quota = bandwidth.quota();
		if (bandwidth instanceof ConcurrencyLimit) {
			detail.append(wholeApi ? "serves" : "serve").append(" at most ").append(quota).append(requests(quota));
			detail.append(" at a time");
		}
		else {
			detail.append(wholeApi ? "takes" : "take").append(" at most ").append(quota).append(requests(quota));
			if (bandwidth instanceof CalendarQuota calendar) {
				detail.append(" a ").append(calendar.period().name().toLowerCase(Locale.ROOT));
			}
			else {
				detail.append(" per ");
				appendPeriod(detail, bandwidth.windowSeconds());
			}
		}
		detail.append(" from all callers together");
	}

	private static String requests(long quota) {
		return (quota == 1) ? " request" : " requests";
	}

	// 60 -> minute, 900 -> 15 minutes, 90 -> 90 seconds
	private static void appendPeriod(StringBuilder detail, long seconds) {
		String unit;
		long amount;
		if (seconds % 86400 == 0) {
			unit = "day";
			amount = seconds / 86400;
		}
		else if (seconds % 3600 == 0) {
			unit = "hour";
			amount = seconds / 3600;
		}
		else if (seconds % 60 == 0) {
			unit = "minute";
			amount = seconds / 60;
		}
		else {
			unit = "second";
			amount = seconds;
		}
		if (amount == 1) {
			detail.append(unit);
		}
		else {
			detail.append(amount).append(' ').append(unit).append('s');
		}
	}

}
