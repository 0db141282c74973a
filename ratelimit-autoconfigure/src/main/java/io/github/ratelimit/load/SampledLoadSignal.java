package io.github.ratelimit.load;

import java.util.function.DoubleSupplier;

/**
 * A {@link LoadSignal} whose level is measured off the request path: {@link #sample()} is
 * called on a schedule (every second by the starter, for Micrometer's CPU gauges) and
 * requests read the last sample.
 */
public final class SampledLoadSignal implements LoadSignal {

	private final DoubleSupplier source;

	private volatile double level;

	/**
	 * Creates the signal.
	 * @param source measures the load, from 0 to 1 (NaN or negative: unknown, read as 0)
	 */
	public SampledLoadSignal(DoubleSupplier source) {
		this.source = source;
	}

	/** Measures the load now; what requests read until the next sample. */
	public void sample() {
		double value = this.source.getAsDouble();
		this.level = (Double.isNaN(value) || value < 0) ? 0 : Math.min(1.0, value);
	}

	@Override
	public double level() {
		return this.level;
	}

}
