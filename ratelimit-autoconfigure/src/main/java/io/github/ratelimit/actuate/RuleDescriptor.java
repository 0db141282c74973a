package io.github.ratelimit.actuate;

import java.util.Locale;

import com.fasterxml.jackson.annotation.JsonInclude;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;

import io.github.ratelimit.control.AccessRule;

/**
 * An allow or deny rule in force, or the one just set.
 *
 * @param access {@code allow} or {@code deny}
 * @param subject whom it names
 * @param tier the tier an allow rule gives; {@code null} (shown) for none
 * @param expiresAt when it ends; {@code null} (shown) for never
 * @param source {@code configuration} (it cannot be deleted at runtime) or
 * {@code runtime}
 */
public record RuleDescriptor(String access, String subject,
		@JsonInclude(JsonInclude.Include.ALWAYS) @Nullable String tier,
		@JsonInclude(JsonInclude.Include.ALWAYS) @Nullable String expiresAt,
		String source) implements OperationResponseBody {

	static RuleDescriptor of(AccessRule rule, boolean configured) {
		return new RuleDescriptor(rule.access().name().toLowerCase(Locale.ROOT), rule.subject().toString(), rule.tier(),
				(rule.expiresAt() != null) ? rule.expiresAt().toString() : null,
				configured ? "configuration" : "runtime");
	}

}
