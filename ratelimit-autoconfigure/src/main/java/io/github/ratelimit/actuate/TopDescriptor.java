package io.github.ratelimit.actuate;

import java.util.List;

import io.github.ratelimit.core.TopRefused;

/**
 * The most refused callers of this instance: this period so far, and the last one.
 *
 * @param period how long a period lasts
 * @param current this period so far
 * @param last the period before
 */
public record TopDescriptor(String period, PeriodDescriptor current, PeriodDescriptor last) {

	static TopDescriptor of(TopRefused top, int size) {
		return new TopDescriptor(top.period().toString(),
				new PeriodDescriptor(top.currentTotal(), callers(top.current(size))),
				new PeriodDescriptor(top.lastTotal(), callers(top.last(size))));
	}

	private static List<CallerDescriptor> callers(List<TopRefused.Entry> entries) {
		return entries.stream()
			.map((entry) -> new CallerDescriptor(entry.caller(), entry.refusals(), entry.error()))
			.toList();
	}

	/**
	 * One period.
	 *
	 * @param refusals every refusal in it
	 * @param callers the most refused callers, most first
	 */
	public record PeriodDescriptor(long refusals, List<CallerDescriptor> callers) {

	}

	/**
	 * One refused caller.
	 *
	 * @param caller the key it is banned by ({@code ip:198.51.100.7}, {@code user:alice})
	 * @param refusals its refusals in the period
	 * @param error how far the count may be too high (a caller that entered the list
	 * late)
	 */
	public record CallerDescriptor(String caller, long refusals, long error) {

	}

}
