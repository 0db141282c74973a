package io.github.ratelimit.storage;

import org.jspecify.annotations.Nullable;

/**
 * The store could not decide in time: the backend is down, slow, or answered nonsense, or
 * the circuit breaker is open. The limiter answers it with the configured failure mode,
 * never with a 500.
 */
public class StoreUnavailableException extends RuntimeException {

	private final Kind kind;

	public StoreUnavailableException(String message) {
		this(Kind.ERROR, message, null);
	}

	public StoreUnavailableException(String message, Throwable cause) {
		this(Kind.ERROR, message, cause);
	}

	/**
	 * Creates an exception of a kind.
	 * @param kind what went wrong, as operators count it
	 * @param message the message
	 * @param cause the cause, or {@code null}
	 */
	public StoreUnavailableException(Kind kind, String message, @Nullable Throwable cause) {
		super(message, cause);
		this.kind = kind;
	}

	/** What went wrong. */
	public Kind kind() {
		return this.kind;
	}

	/**
	 * What went wrong, as the {@code ratelimit.store.errors} meter counts it (a bounded
	 * set).
	 */
	public enum Kind {

		/** The backend stayed silent, or did not decide, within the timeout. */
		TIMEOUT,

		/** No connection to the backend. */
		NOT_CONNECTED,

		/** The circuit breaker is open: the backend was not asked. */
		CIRCUIT_OPEN,

		/**
		 * The application was too busy to be answered in time, though the backend
		 * answers.
		 */
		OVERLOADED,

		/** The backend answered an error: out of memory, read-only, loading, busy... */
		REFUSED,

		/** The backend answered nonsense (a refusal naming no short bucket). */
		INCONSISTENT,

		/** Anything else the backend threw. */
		ERROR;

		/** The tag value ({@code circuit-open}). */
		public String tag() {
			return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
		}

	}

}
