package io.github.ratelimit.actuate;

import com.fasterxml.jackson.annotation.JsonInclude;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;

import io.github.ratelimit.control.InvalidControlInputException;

/**
 * Why a call of the {@code ratelimits} endpoint did nothing: an unknown section (404), a
 * bad value (400: with the field, the reason and a valid value when the value was one of
 * runtime control's), a store that could not answer (503).
 *
 * @param error the message
 * @param property the input field, named as in the message ("property", as the answer has
 * always named it)
 * @param reason what is wrong with the value
 * @param example a valid value for the field
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record ErrorDescriptor(String error, @Nullable String property, @Nullable String reason,
		@Nullable String example) implements OperationResponseBody {

	static ErrorDescriptor unknownSection(String section) {
		return new ErrorDescriptor("Unknown section '" + section + "'", null, null, null);
	}

	static ErrorDescriptor badRequest(IllegalArgumentException ex) {
		String error = (ex.getMessage() != null) ? ex.getMessage() : "Bad request";
		if (ex instanceof InvalidControlInputException invalid) {
			return new ErrorDescriptor(error, invalid.getField(), invalid.getReason(), invalid.getExample());
		}
		return new ErrorDescriptor(error, null, null, null);
	}

	static ErrorDescriptor unavailable(RuntimeException ex) {
		return new ErrorDescriptor("The rate-limit store could not answer: " + ex.getMessage(), null, null, null);
	}

}
