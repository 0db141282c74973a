package io.github.ratelimit.policy;

import java.time.ZoneId;

/**
 * A calendar quota: {@code quota} requests per calendar {@code period} in {@code zone},
 * all of them back at the period's boundary ({@code 10000/month} resets at midnight on
 * the 1st). Unused requests do not carry over.
 *
 * @param quota the requests a period grants
 * @param period the calendar period
 * @param zone the time zone of the boundaries ({@code ratelimit.quotas.zone})
 */
public record CalendarQuota(long quota, CalendarPeriod period, ZoneId zone) implements WindowQuota {

	public CalendarQuota {
		if (quota < 1) {
			throw new IllegalArgumentException("quota must be positive");
		}
	}

	@Override
	public long capacity() {
		return this.quota;
	}

	@Override
	public long windowSeconds() {
		return this.period.nominalSeconds();
	}

	@Override
	public String label() {
		return this.period.label();
	}

	/**
	 * The period that holds {@code epochMillis} and the next one, as boundaries in epoch
	 * ms: the current period is {@code [start, end)}, the next {@code [end, nextEnd)}. A
	 * store whose clock differs from the caller's (Redis) picks by its own clock.
	 */
	@Override
	public Window window(long epochMillis) {
		long start = this.period.startOf(epochMillis, this.zone);
		long end = this.period.nextStart(start, this.zone);
		return new Window(start, end, this.period.nextStart(end, this.zone));
	}

	/**
	 * Boundaries of a period and the next.
	 *
	 * @param start the period's start (epoch ms)
	 * @param end its end, the next period's start
	 * @param nextEnd the next period's end
	 */
	public record Window(long start, long end, long nextEnd) {
	}

}
