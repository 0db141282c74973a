package io.github.ratelimit.actuate;

import java.util.function.Supplier;

import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;

/**
 * The status and body of the {@code ratelimits} endpoint's answers: 200 with what the
 * operation returned, 400 for bad input (checked before anything was written), 503 for a
 * store that could not answer, 404 for an unknown section.
 */
final class Answers {

	private Answers() {
	}

	/** Runs an operation that writes: any failure but bad input is the store's. */
	static WebEndpointResponse<OperationResponseBody> of(Supplier<OperationResponseBody> operation) {
		// a Redis client failure (timeout, connection) is the store not answering, not a
		// bug of the caller
		return of(RuntimeException.class, operation);
	}

	/**
	 * Runs an operation: bad input is a 400, a failure of type {@code unavailable} a 503.
	 */
	static WebEndpointResponse<OperationResponseBody> of(Class<? extends RuntimeException> unavailable,
			Supplier<OperationResponseBody> operation) {
		try {
			return ok(operation.get());
		}
		catch (IllegalArgumentException ex) {
			// bad input, checked before anything was written
			return new WebEndpointResponse<>(ErrorDescriptor.badRequest(ex), WebEndpointResponse.STATUS_BAD_REQUEST);
		}
		catch (RuntimeException ex) {
			if (!unavailable.isInstance(ex)) {
				throw ex;
			}
			return new WebEndpointResponse<>(ErrorDescriptor.unavailable(ex),
					WebEndpointResponse.STATUS_SERVICE_UNAVAILABLE);
		}
	}

	static WebEndpointResponse<OperationResponseBody> ok(OperationResponseBody body) {
		return new WebEndpointResponse<>(body, WebEndpointResponse.STATUS_OK);
	}

	static WebEndpointResponse<OperationResponseBody> notFound(String section) {
		return new WebEndpointResponse<>(ErrorDescriptor.unknownSection(section), WebEndpointResponse.STATUS_NOT_FOUND);
	}

}
