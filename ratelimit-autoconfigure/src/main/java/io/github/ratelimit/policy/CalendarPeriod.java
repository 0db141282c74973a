package io.github.ratelimit.policy;

import java.time.DayOfWeek;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.temporal.TemporalAdjusters;

/**
 * The calendar periods of quotas. Periods start at midnight in the quota's time zone: a
 * day at 00:00, a week on Monday (ISO), a month on its 1st. Computed with
 * {@code java.time}, so daylight-saving days of 23 or 25 hours and months of 28 to 31
 * days come out right.
 */
public enum CalendarPeriod {

	/** From midnight to midnight. */
	DAY(86_400),

	/** From Monday midnight to Monday midnight. */
	WEEK(7 * 86_400),

	/** From the first of a month to the first of the next. */
	MONTH(30 * 86_400);

	private final long nominalSeconds;

	CalendarPeriod(long nominalSeconds) {
		this.nominalSeconds = nominalSeconds;
	}

	/** The nominal length, for {@code w=} (the real one varies with the calendar). */
	public long nominalSeconds() {
		return this.nominalSeconds;
	}

	/**
	 * The start (epoch ms) of the period that holds {@code epochMillis}, in {@code zone}.
	 */
	public long startOf(long epochMillis, ZoneId zone) {
		LocalDate date = Instant.ofEpochMilli(epochMillis).atZone(zone).toLocalDate();
		LocalDate first = switch (this) {
			case DAY -> date;
			case WEEK -> date.with(TemporalAdjusters.previousOrSame(DayOfWeek.MONDAY));
			case MONTH -> date.withDayOfMonth(1);
		};
		return first.atStartOfDay(zone).toInstant().toEpochMilli();
	}

	/**
	 * The start (epoch ms) of the period after the one that starts at
	 * {@code startMillis}.
	 */
	public long nextStart(long startMillis, ZoneId zone) {
		ZonedDateTime start = Instant.ofEpochMilli(startMillis).atZone(zone);
		LocalDate next = switch (this) {
			case DAY -> start.toLocalDate().plusDays(1);
			case WEEK -> start.toLocalDate().plusWeeks(1);
			case MONTH -> start.toLocalDate().plusMonths(1);
		};
		return next.atStartOfDay(zone).toInstant().toEpochMilli();
	}

	/** The label in limit strings ({@code day}, {@code week}, {@code month}). */
	public String label() {
		return name().toLowerCase(java.util.Locale.ROOT);
	}

}
