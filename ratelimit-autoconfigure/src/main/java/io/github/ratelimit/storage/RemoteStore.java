package io.github.ratelimit.storage;

/**
 * A store that decides over a network connection, guarded by a circuit breaker: what
 * metrics and health report of it, without knowing its backend.
 */
public interface RemoteStore {

	/** Whether the store's connection is up. */
	boolean isConnected();

	/** The state of the store's circuit breaker. */
	Circuit circuit();

	/** The states of a store's circuit breaker. */
	enum Circuit {

		/** Decisions go to the backend. */
		CLOSED,

		/** Decisions get the failure mode until the cool-down has passed. */
		OPEN,

		/** One probe decision goes to the backend. */
		HALF_OPEN

	}

}
