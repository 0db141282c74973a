package io.github.ratelimit.autoconfigure;

import java.time.Duration;

/**
 * The warm-up after start ({@code ratelimit.warm-up}): limits ramp from a share of their
 * size to all of it, so a freshly started instance with cold caches is not given full
 * budgets at once.
 */
public class WarmUpProperties {

	/** How long limits take to reach their configured size after start; 0: no warm-up. */
	private Duration period = Duration.ZERO;

	/**
	 * Share of their size (above 0, at most 1) limits are in force at right after start.
	 */
	private double initial = 0.25;

	public Duration getPeriod() {
		return this.period;
	}

	public void setPeriod(Duration period) {
		this.period = period;
	}

	public double getInitial() {
		return this.initial;
	}

	public void setInitial(double initial) {
		this.initial = initial;
	}

}
