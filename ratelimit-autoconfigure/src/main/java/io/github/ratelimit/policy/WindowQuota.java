package io.github.ratelimit.policy;

/**
 * A bandwidth that counts requests per window and gives all of them back when the window
 * ends: a {@link CalendarQuota} ({@code 10000/month}) or a {@link FixedWindow}
 * ({@code 100/1m fixed}). Stores count both the same way: a count that belongs to the
 * window it was counted in, back to zero at the boundary.
 */
public sealed interface WindowQuota extends Bandwidth permits CalendarQuota, FixedWindow {

	/**
	 * The window that holds {@code epochMillis} and the next one, as boundaries in epoch
	 * ms. A store whose clock differs from the caller's (Redis) picks by its own clock.
	 * @param epochMillis the time
	 * @return the window and the next one
	 */
	CalendarQuota.Window window(long epochMillis);

}
