package io.github.ratelimit.http;

import java.time.Instant;
import java.util.List;

import io.github.ratelimit.core.Decision;
import io.github.ratelimit.core.LimitReport;
import io.github.ratelimit.core.PolicyState;
import io.github.ratelimit.identity.Identity;
import io.github.ratelimit.load.Priority;
import io.github.ratelimit.policy.Classification;
import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.LimitParser;
import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.policy.PolicyScope;

/**
 * Decisions built from real {@link Policy} objects, shaped as {@code RateLimiter} builds
 * them.
 */
final class TestDecisions {

	static final Instant DECIDED_AT = Instant.parse("2026-01-17T12:34:33Z");

	static final Identity ALICE = new Identity("alice", "acme", null, "203.0.113.7", "premium", true);

	private TestDecisions() {
	}

	static Policy policy(String tier, Dimension dimension, String group, String limit) {
		return new Policy(tier, dimension, group, LimitParser.parse(limit));
	}

	static Policy policy(PolicyScope scope, Dimension dimension, String group, String limit) {
		return new Policy(scope, dimension, group, LimitParser.parse(limit));
	}

	static PolicyState admitted(Policy policy, int bandwidth, String id, long remaining, long resetSeconds) {
		return new PolicyState(policy, bandwidth, id, remaining, resetSeconds, false);
	}

	static PolicyState violated(Policy policy, int bandwidth, String id, long resetSeconds) {
		return new PolicyState(policy, bandwidth, id, 0, resetSeconds, true);
	}

	static Decision.Allowed allowed(Identity identity, String group, PolicyState binding, PolicyState... states) {
		return new Decision.Allowed(identity, Classification.of(group, 1), DECIDED_AT,
				new LimitReport(List.of(states), binding));
	}

	static Decision.Allowed allowed(Identity identity, String group, LimitReport limits) {
		return new Decision.Allowed(identity, Classification.of(group, 1), DECIDED_AT, limits);
	}

	static Decision.Rejected rejected(Identity identity, String group, PolicyState binding, PolicyState... states) {
		return rejectedAt(DECIDED_AT, identity, group, binding, states);
	}

	static Decision.Rejected rejectedAt(Instant decidedAt, Identity identity, String group, PolicyState binding,
			PolicyState... states) {
		return new Decision.Rejected(identity, Classification.of(group, 1), decidedAt,
				new LimitReport(List.of(states), binding));
	}

	static Decision.Blocked blocked(Identity identity, String group, Policy blockedBy) {
		return new Decision.Blocked(identity, Classification.of(group, 1), DECIDED_AT, blockedBy);
	}

	static Decision.Unlimited unlimited(Identity identity, String group) {
		return new Decision.Unlimited(identity, Classification.of(group, 1), DECIDED_AT);
	}

	static Decision.AdmittedOnError admittedOnError(Identity identity, String group) {
		return new Decision.AdmittedOnError(identity, Classification.of(group, 1), DECIDED_AT);
	}

	static Decision.Denied denied(Identity identity, String group) {
		return new Decision.Denied(identity, Classification.of(group, 1), DECIDED_AT);
	}

	static Decision.Banned banned(Identity identity, String group, long retryAfterSeconds) {
		return new Decision.Banned(identity, Classification.of(group, 1), DECIDED_AT, retryAfterSeconds);
	}

	static Decision.Unavailable unavailable(Identity identity, String group) {
		return new Decision.Unavailable(identity, Classification.of(group, 1), DECIDED_AT);
	}

	static Decision.Shed shed(Identity identity, String group, Priority priority, long retryAfterSeconds) {
		return new Decision.Shed(identity, Classification.of(group, 1), DECIDED_AT, priority, retryAfterSeconds);
	}

	/**
	 * An org over its export quota while the user still has budget: the org is binding.
	 */
	static Decision.Rejected orgExportRejected() {
		Policy org = policy("premium", Dimension.ORG, "export", "100/1m");
		Policy user = policy("premium", Dimension.USER, "export", "50/1m, 500/1h");
		Policy backstop = policy(PolicyScope.BACKSTOP, Dimension.IP, "default", "2000/1m");
		PolicyState orgState = violated(org, 0, "acme", 23);
		return rejected(ALICE, "export", orgState, orgState, admitted(user, 0, "alice", 40, 12),
				admitted(user, 1, "alice", 490, 72), admitted(backstop, 0, "203.0.113.7", 1990, 1));
	}

}
