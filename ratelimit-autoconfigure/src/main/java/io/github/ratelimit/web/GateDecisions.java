package io.github.ratelimit.web;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import io.github.ratelimit.core.Decision;
import io.github.ratelimit.core.LimitReport;
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
	 * The limits the response shows.
	 * @param gate what the gate decided, or {@code null} when it decided nothing
	 * @param after what the filter after authentication decided
	 * @return the limits of {@code after} with the gate's added; when {@code after}
	 * admits, the binding one is the closest to exhaustion of both
	 */
	public static LimitReport shown(@Nullable Decision gate, Decision after) {
		LimitReport limits = after.limits();
		if (gate == null || gate.limits().states().isEmpty()) {
			return limits;
		}
		LimitReport before = gate.limits();
		List<PolicyState> states = new ArrayList<>(before.states().size() + limits.states().size());
		states.addAll(before.states());
		states.addAll(limits.states());
		List<LimitReport.Warning> warnings = new ArrayList<>(before.warnings());
		warnings.addAll(limits.warnings());
		PolicyState binding = limits.binding();
		if (after instanceof Decision.Admitted && (binding == null
				|| (before.binding() != null && before.binding().remaining() < binding.remaining()))) {
			binding = before.binding();
		}
		return new LimitReport(List.copyOf(states), binding, List.copyOf(warnings));
	}

}
