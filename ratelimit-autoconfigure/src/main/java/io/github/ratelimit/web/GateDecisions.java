package io.github.ratelimit.web;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import io.github.ratelimit.core.Decision;
import io.github.ratelimit.core.PolicyState;

/**
 * One request decided in two parts, its client address's outcome-counted limits by the
 * gate before authentication and the rest by the filter after it, shown to the client as
 * one decision: the rate-limit headers name every limit and the one closest to
 * exhaustion, as a request decided whole does.
 */
public final class GateDecisions {

	private GateDecisions() {
	}

	/**
	 * The decision whose headers the response shows.
	 * @param gate what the gate decided, or {@code null} when it decided nothing
	 * @param after what the filter after authentication decided
	 * @return {@code after} with the gate's limits added
	 */
	public static Decision shown(@Nullable Decision gate, Decision after) {
		if (gate == null || gate.states().isEmpty()) {
			return after;
		}
		List<PolicyState> states = new ArrayList<>(gate.states().size() + after.states().size());
		states.addAll(gate.states());
		states.addAll(after.states());
		List<Decision.Warning> warnings = new ArrayList<>(gate.warnings());
		warnings.addAll(after.warnings());
		PolicyState binding = after.binding();
		if (after.outcome().admits()
				&& (binding == null || (gate.binding() != null && gate.binding().remaining() < binding.remaining()))) {
			binding = gate.binding();
		}
		return new Decision(after.outcome().admits() ? gate.outcome() : after.outcome(), after.identity(),
				after.classification(), List.copyOf(states), binding, after.retryAfterSeconds(), after.blockedBy(),
				after.decidedAt(), List.copyOf(warnings), after.observed(), after.waitMillis(), after.completion());
	}

}
