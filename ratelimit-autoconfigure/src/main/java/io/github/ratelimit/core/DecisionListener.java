package io.github.ratelimit.core;

import java.util.List;

import org.slf4j.LoggerFactory;

/**
 * Step six of the pipeline: told of every decision after it is made (metrics, logs).
 * Implementations run on the request path: keep them fast and never throw.
 */
@FunctionalInterface
public interface DecisionListener {

	/**
	 * Called once per decided request.
	 * @param decision the decision
	 * @param elapsedNanos how long deciding took
	 */
	void onDecision(Decision decision, long elapsedNanos);

	/** A listener that does nothing. */
	DecisionListener NONE = (decision, elapsedNanos) -> {
	};

	/**
	 * A listener that tells each of {@code listeners} in turn, isolating their failures.
	 */
	static DecisionListener composite(List<DecisionListener> listeners) {
		if (listeners.isEmpty()) {
			return NONE;
		}
		DecisionListener[] all = listeners.toArray(DecisionListener[]::new);
		return (decision, elapsedNanos) -> {
			for (DecisionListener listener : all) {
				try {
					listener.onDecision(decision, elapsedNanos);
				}
				catch (RuntimeException ex) {
					LoggerFactory.getLogger(DecisionListener.class).warn("Decision listener failed", ex);
				}
			}
		};
	}

}
