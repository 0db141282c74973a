package io.github.ratelimit.storage;

/**
 * The store could not decide in time: the backend is down, slow, or answered nonsense, or the circuit
 * breaker is open. The limiter answers it with the configured failure mode, never with a 500.
 */
public class StoreUnavailableException extends RuntimeException {

	public StoreUnavailableException(String message) {
		super(message);
	}

	public StoreUnavailableException(String message, Throwable cause) {
		super(message, cause);
	}

}
