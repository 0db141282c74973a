package io.github.ratelimit.actuate;

import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.annotation.JsonInclude;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;

/**
 * What {@code GET /actuator/ratelimits} shows, every part of it; one section
 * ({@code GET /actuator/ratelimits/bans}) shows that part alone.
 *
 * @param policies the policy table in force, by tier and group
 * @param overrides the overrides in force
 * @param rules the allow and deny rules in force, configured ones first
 * @param bans the bans in force
 * @param top the most refused callers of this instance
 * @param refreshInterval how long a change takes to reach every instance at most
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RateLimitsDescriptor(@Nullable Map<String, Map<String, List<PolicyDescriptor>>> policies,
		@Nullable List<OverrideDescriptor> overrides, @Nullable List<RuleDescriptor> rules,
		@Nullable List<BanDescriptor> bans, @Nullable TopDescriptor top,
		@Nullable String refreshInterval) implements OperationResponseBody {

}
