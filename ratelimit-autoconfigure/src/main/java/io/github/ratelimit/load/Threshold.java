package io.github.ratelimit.load;

/**
 * A load threshold with hysteresis: crossed when the level reaches {@code enter}, and
 * crossed still until the level falls below {@code leave}, so a level that hovers around
 * the threshold does not switch shedding or adaptive limits on and off with every
 * request.
 */
public final class Threshold {

	private final double enter;

	private final double leave;

	private volatile boolean crossed;

	/**
	 * Creates a threshold.
	 * @param enter the level from which it is crossed, above 0 and at most 1
	 * @param leave the level below which it is no longer crossed, at most {@code enter}
	 */
	public Threshold(double enter, double leave) {
		if (!(enter > 0 && enter <= 1) || !(leave >= 0 && leave <= enter)) {
			throw new IllegalArgumentException("0 <= leave <= enter <= 1, enter > 0");
		}
		this.enter = enter;
		this.leave = leave;
	}

	/**
	 * Whether the threshold is crossed at this level, given where it was.
	 * @param level the load now
	 * @return whether it is crossed
	 */
	public boolean crossed(double level) {
		boolean was = this.crossed;
		boolean now = was ? level >= this.leave : level >= this.enter;
		if (now != was) {
			// a race between two requests only delays the switch by one request
			this.crossed = now;
		}
		return now;
	}

	/** The level from which it is crossed. */
	public double enter() {
		return this.enter;
	}

	/** The level below which it is no longer crossed. */
	public double leave() {
		return this.leave;
	}

}
