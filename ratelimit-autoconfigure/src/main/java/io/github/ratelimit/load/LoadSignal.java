package io.github.ratelimit.load;

/**
 * How loaded this instance is, from 0 (idle) to 1 (saturated), read on every request that
 * load shedding or adaptive limits may apply to: implementations answer from a value kept
 * up to date elsewhere (a counter, a sample), never by measuring on the request path. An
 * application may define its own as a bean (queue depth, a downstream's latency); the
 * starter then uses it instead of {@link InFlightLoadSignal} and the CPU sample.
 */
@FunctionalInterface
public interface LoadSignal {

	/**
	 * The load now.
	 * @return from 0 (idle) to 1 (saturated); values outside are clamped
	 */
	double level();

	/**
	 * A signal that is as high as the highest of some.
	 * @param signals the signals
	 * @return the highest of them
	 */
	static LoadSignal highestOf(LoadSignal... signals) {
		LoadSignal[] copy = signals.clone();
		if (copy.length == 1) {
			return copy[0];
		}
		return () -> {
			double highest = 0;
			for (LoadSignal signal : copy) {
				highest = Math.max(highest, signal.level());
			}
			return highest;
		};
	}

}
