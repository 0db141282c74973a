package io.github.ratelimit.core;

import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import io.github.ratelimit.identity.Identity;
import io.github.ratelimit.policy.Classification;
import io.github.ratelimit.storage.LimitCheck;

/**
 * What {@link RequestPlanner} made of a request: either a decision reached without the
 * store (excluded, denied, allow-listed, banned, blocked outright, or nothing to check),
 * or the checks the store is to decide.
 *
 * @param identity the caller, with the tier an allow rule gave it
 * @param classification the request's group and cost
 * @param checks the checks for the store; empty when {@code decision} is set
 * @param decision the decision reached without the store, or {@code null}
 * @param waitingSlot whether the request holds a {@link WaitingSlots waiting slot}
 * @param account the hash of the account a login attempt tries, the id of its account
 * check
 * @param keyValues the values of the keys of the application's choosing that the checks
 * count by, by key name: the ids of checks of {@code Dimension.KEY}
 * @param answeredLocally whether the checks may be answered without the store, from a
 * refusal it gave earlier or a hot bucket's reserve: not when the group's requests may
 * wait, nor for a login attempt (its budgets are given back on success)
 */
record RequestPlan(Identity identity, Classification classification, List<LimitCheck> checks,
		@Nullable Decision decision, boolean waitingSlot, @Nullable String account, Map<String, String> keyValues,
		boolean answeredLocally) {

	RequestPlan(Identity identity, Classification classification, List<LimitCheck> checks, @Nullable Decision decision,
			boolean waitingSlot, @Nullable String account) {
		this(identity, classification, checks, decision, waitingSlot, account, Map.of(), false);
	}

	/** A plan decided already, with no store. */
	static RequestPlan decided(Decision decision) {
		return new RequestPlan(decision.identity(), decision.classification(), List.of(), decision, false, null);
	}

}
