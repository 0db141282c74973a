package io.github.ratelimit.core;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.jspecify.annotations.Nullable;

import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.Mode;
import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.storage.BandwidthResult;
import io.github.ratelimit.storage.LimitCheck;
import io.github.ratelimit.storage.Permits;
import io.github.ratelimit.storage.RateLimitStore;
import io.github.ratelimit.storage.StoreDecision;

/**
 * Turns the store's answer to a {@link RequestPlan}'s checks into a {@link Decision}: the
 * state of every bandwidth, the warnings of soft limits and warn mode, what observed
 * policies would have refused, and the binding state, which names the most actionable
 * reason (on a refusal, the longest wait, a budget of the service only when its wait in
 * whole seconds is longer than the caller's own limits'; otherwise the bandwidth closest
 * to exhaustion). An admitted request's {@link Completion} gives back its waiting slot,
 * permits and the tokens its final status may return. When the store could not answer, or
 * answered a refusal it cannot explain, the failure mode decides, and
 * {@link StoreFailures} records it.
 */
final class StoreAnswerEvaluator {

	private final RateLimitStore store;

	private final FailureMode failureMode;

	private final @Nullable RateLimitStore fallbackStore;

	private final StoreFailures storeFailures;

	private final WaitingSlots waiting;

	private final Clock clock;

	/**
	 * Creates an evaluator.
	 * @param store the store that decides
	 * @param failureMode what to do when it cannot
	 * @param fallbackStore the per-instance store of {@link FailureMode#LOCAL}
	 * @param storeFailures where the failures are recorded
	 * @param waiting the waiting slots plans hold
	 * @param clock the clock of {@link Decision#decidedAt()}
	 */
	StoreAnswerEvaluator(RateLimitStore store, FailureMode failureMode, @Nullable RateLimitStore fallbackStore,
			StoreFailures storeFailures, WaitingSlots waiting, Clock clock) {
		this.store = store;
		this.failureMode = failureMode;
		this.fallbackStore = fallbackStore;
		this.storeFailures = storeFailures;
		this.waiting = waiting;
		this.clock = clock;
	}

	/** Evaluates the store's answer to a plan's checks. */
	Decision evaluate(RequestPlan plan, StoreDecision storeDecision) {
		return evaluate(plan, storeDecision, this.store);
	}

	/**
	 * Decides a plan the store failed to decide by the failure mode.
	 * @param plan the plan
	 * @param failure why the store could not decide
	 * @return the failure mode's decision
	 */
	Decision failed(RequestPlan plan, Throwable failure) {
		this.waiting.release(plan);
		this.storeFailures.record(failure);
		return switch (this.failureMode) {
			case OPEN -> admittedOnError(plan);
			case CLOSED -> new Decision.Unavailable(plan.identity(), plan.classification(), this.clock.instant());
			case LOCAL -> {
				try {
					yield evaluate(plan, this.fallbackStore.decide(plan.checks()), this.fallbackStore);
				}
				catch (RuntimeException ex) {
					yield admittedOnError(plan);
				}
			}
		};
	}

	private Decision admittedOnError(RequestPlan plan) {
		return new Decision.AdmittedOnError(plan.identity(), plan.classification(), this.clock.instant());
	}

	/**
	 * The refusal of a plan one of whose checks the store found short until a moment
	 * still to come ({@link LocalRefusals}): that bucket shows none left and a reset at
	 * that moment. The plan's other limits are listed (the policies a response names)
	 * without numbers of their own: no store was asked, and only the binding state's are
	 * shown.
	 */
	Decision refusedLocally(RequestPlan plan, LimitCheck refused, LocalRefusals.Shortage shortage, long nowMillis) {
		List<PolicyState> states = new ArrayList<>(plan.checks().size());
		PolicyState binding = null;
		for (LimitCheck check : plan.checks()) {
			Policy policy = check.policy();
			if (policy.mode() == Mode.OBSERVE) {
				continue;
			}
			String id = (policy.dimension() == Dimension.ACCOUNT) ? plan.account() : idOf(plan, policy);
			for (int b = 0; b < policy.limit().bandwidths().size(); b++) {
				if (check == refused && b == shortage.bandwidth()) {
					long resetSeconds = Math.max(1, ceilSeconds(shortage.untilMillis() - nowMillis));
					binding = new PolicyState(policy, b, id, 0, resetSeconds, true);
					states.add(binding);
				}
				else {
					states.add(new PolicyState(policy, b, id, 0, 0, false));
				}
			}
		}
		LimitReport limits = new LimitReport(Collections.unmodifiableList(states), binding, List.of());
		return new Decision.Rejected(plan.identity(), plan.classification(), this.clock.instant(), limits, true);
	}

	// the caller's id in a policy: a key's is the value the planner read
	private static @Nullable String idOf(RequestPlan plan, Policy policy) {
		String keyName = policy.keyName();
		return (keyName != null) ? plan.keyValues().get(keyName) : plan.identity().idFor(policy.dimension());
	}

	// store: the one that decided, which gets back what a response its limits do not
	// count took
	private Decision evaluate(RequestPlan plan, StoreDecision storeDecision, RateLimitStore store) {
		List<LimitCheck> checks = plan.checks();
		// mostly one bandwidth per check
		List<PolicyState> states = new ArrayList<>(checks.size() + 1);
		List<LimitReport.Warning> warnings = null;
		List<PolicyState> observed = null;
		PolicyState binding = null;
		long longestWait = -1;
		PolicyState serviceBinding = null;
		long longestServiceWait = -1;
		boolean admitted = storeDecision.admitted();
		for (int i = 0; i < checks.size(); i++) {
			LimitCheck check = checks.get(i);
			List<BandwidthResult> results = storeDecision.results().get(i).bandwidths();
			Policy policy = check.policy();
			Mode mode = policy.mode();
			String id = (policy.dimension() == Dimension.ACCOUNT) ? plan.account() : idOf(plan, policy);
			for (int b = 0; b < results.size(); b++) {
				BandwidthResult result = results.get(b);
				boolean violated = !admitted && check.enforced() && result.wasShort();
				// a token bucket a waiting request reserved from is short now but not
				// violated
				boolean wouldRefuse = !check.enforced() && result.wasShort();
				// t: when this bucket holds the request's cost again; on a refusal, when
				// the request could pass
				long resetMillis = (violated || wouldRefuse) ? result.millisUntilCost() : result.millisUntilCostAgain();
				long resetSeconds = violated ? Math.max(1, ceilSeconds(resetMillis)) : ceilSeconds(resetMillis);
				PolicyState state = new PolicyState(policy, b, id, result.remaining(), resetSeconds, violated);
				if (mode == Mode.OBSERVE) {
					// observed policies never show: they only record what they would have
					// refused
					if (wouldRefuse) {
						observed = add(observed, state);
					}
					continue;
				}
				states.add(state);
				if (wouldRefuse) {
					warnings = add(warnings, new LimitReport.Warning(state, true));
				}
				else if (policy.pastWarnAt(b, result.remaining())) {
					warnings = add(warnings, new LimitReport.Warning(state, false));
				}
				if (admitted) {
					// report the bandwidth closest to exhaustion; earlier (org first)
					// wins ties
					if (binding == null || result.remaining() < binding.remaining()) {
						binding = state;
					}
				}
				else if (violated && policy.dimension() == Dimension.SERVICE) {
					if (resetMillis > longestServiceWait) {
						serviceBinding = state;
						longestServiceWait = resetMillis;
					}
				}
				else if (violated && (resetMillis > longestWait || (resetMillis == longestWait
						&& policy.dimension().ordinal() < binding.dimension().ordinal()))) {
					// the longest wait is the most actionable reason: sooner would fail
					// again
					binding = state;
					longestWait = resetMillis;
				}
			}
		}
		if (serviceBinding != null && (binding == null || serviceBinding.resetSeconds() > binding.resetSeconds())) {
			// a busy service is named only when it makes the caller wait longer, in the
			// whole seconds Retry-After shows, than the caller's own limits: on a tie the
			// caller's own limit is the more actionable reason
			binding = serviceBinding;
		}
		if (!admitted && binding == null) {
			// a refusal that names no short bucket cannot be explained to the caller: the
			// store is broken, and a broken store gets the failure mode, like one that is
			// down
			return failed(plan, this.storeFailures.inconsistent(storeDecision));
		}
		// states is this method's own list: wrap it rather than copy it
		LimitReport limits = new LimitReport(Collections.unmodifiableList(states), binding,
				(warnings != null) ? warnings : List.of());
		if (!admitted) {
			this.waiting.release(plan);
			// a refusal took nothing (StoreDecision#admitted)
			storeDecision.permits().release();
			return new Decision.Rejected(plan.identity(), plan.classification(), this.clock.instant(), limits);
		}
		long waitMillis = storeDecision.waitMillis();
		Completion completion = Completion.NONE;
		OutcomeReservation reservation = OutcomeReservation.of(checks, storeDecision, store);
		if (waitMillis > 0 && plan.waitingSlot()) {
			completion = new Completion(storeDecision.permits(), this.waiting::release, reservation);
		}
		else {
			this.waiting.release(plan);
			if (storeDecision.permits() != Permits.NONE || reservation != null) {
				completion = new Completion(storeDecision.permits(), null, reservation);
			}
		}
		return new Decision.Allowed(plan.identity(), plan.classification(), this.clock.instant(), limits,
				(observed != null) ? observed : List.of(), waitMillis, completion);
	}

	private static <T> List<T> add(@Nullable List<T> list, T element) {
		List<T> result = (list != null) ? list : new ArrayList<>(2);
		result.add(element);
		return result;
	}

	private static long ceilSeconds(long millis) {
		return (millis + 999) / 1000;
	}

}
