package io.github.ratelimit.load;

/**
 * The default {@link LoadSignal}: the requests in flight on this instance against how
 * many it is meant to handle at once ({@code ratelimit.load.max-in-flight}).
 */
public final class InFlightLoadSignal implements LoadSignal {

	private final InFlightRequests inFlight;

	private final int maxInFlight;

	/**
	 * Creates the signal.
	 * @param inFlight the requests in flight
	 * @param maxInFlight how many requests make a level of 1
	 */
	public InFlightLoadSignal(InFlightRequests inFlight, int maxInFlight) {
		if (maxInFlight < 1) {
			throw new IllegalArgumentException("maxInFlight must be positive");
		}
		this.inFlight = inFlight;
		this.maxInFlight = maxInFlight;
	}

	@Override
	public double level() {
		return Math.min(1.0, (double) this.inFlight.count() / this.maxInFlight);
	}

}
