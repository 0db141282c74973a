package io.github.ratelimit.actuate;

import com.fasterxml.jackson.annotation.JsonInclude;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;

import io.github.ratelimit.control.LimitOverride;

/**
 * An override in force, or the one just set.
 *
 * @param dimension the dimension
 * @param id the identity's id in it (a token id for keys, the client group for ip)
 * @param group the endpoint group, {@code default} or {@code all}
 * @param limit the limit, as written
 * @param expiresAt when it ends; {@code null} (shown) for never
 */
public record OverrideDescriptor(String dimension, String id, String group, String limit,
		@JsonInclude(JsonInclude.Include.ALWAYS) @Nullable String expiresAt) implements OperationResponseBody {

	static OverrideDescriptor of(LimitOverride override) {
		return new OverrideDescriptor(override.dimension().key(), override.id(), override.group(), override.limit(),
				(override.expiresAt() != null) ? override.expiresAt().toString() : null);
	}

}
