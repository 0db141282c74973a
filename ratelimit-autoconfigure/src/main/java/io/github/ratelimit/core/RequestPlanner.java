package io.github.ratelimit.core;

import java.time.Clock;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import io.github.ratelimit.control.AccessVerdict;
import io.github.ratelimit.control.Ban;
import io.github.ratelimit.control.RuntimeControl;
import io.github.ratelimit.identity.ClientRequest;
import io.github.ratelimit.identity.Identifier;
import io.github.ratelimit.identity.Identity;
import io.github.ratelimit.load.LoadShedder;
import io.github.ratelimit.load.Priority;
import io.github.ratelimit.load.ScaledPolicies;
import io.github.ratelimit.policy.Classification;
import io.github.ratelimit.policy.InlineLimit;
import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.policy.PolicyRegistry;
import io.github.ratelimit.policy.PolicyTable;
import io.github.ratelimit.storage.LimitCheck;
import io.github.ratelimit.storage.StoreKeys;

/**
 * Plans the checks of a request before the store is asked: identifies the caller, applies
 * access rules and bans, picks the policies of its tier and group in scope (and the
 * budgets of failed logins of a login attempt), and takes a waiting slot for a request
 * that may wait. What rules, bans or impossible limits decide alone ends in a
 * {@link RequestPlan} with its decision.
 */
final class RequestPlanner {

	private final Identifier identifier;

	private final PolicyRegistry registry;

	private final @Nullable RuntimeControl control;

	private final @Nullable LoginProtection loginProtection;

	private final WaitingSlots waiting;

	private final StoreKeys keys;

	private final Clock clock;

	private final RequestKeys requestKeys;

	private final @Nullable LoadShedder shedder;

	private final @Nullable ScaledPolicies scaled;

	RequestPlanner(Identifier identifier, PolicyRegistry registry, @Nullable RuntimeControl control,
			@Nullable LoginProtection loginProtection, WaitingSlots waiting, StoreKeys keys, Clock clock,
			RequestKeys requestKeys, @Nullable LoadShedder shedder, @Nullable ScaledPolicies scaled) {
		this.shedder = shedder;
		this.scaled = scaled;
		this.identifier = identifier;
		this.requestKeys = requestKeys;
		this.keys = keys;
		this.registry = registry;
		this.control = control;
		this.loginProtection = loginProtection;
		this.waiting = waiting;
		this.clock = clock;
	}

	/**
	 * Plans a request.
	 * @param request the request
	 * @param classification its group and cost
	 * @param scope which of its limits to check
	 * @param decidedBefore the limits an earlier decision of the request decided
	 * ({@link #decidedLimits(Decision)}), left out
	 * @param attempt the login attempt, or {@code null}
	 * @return the plan
	 */
	RequestPlan plan(ClientRequest request, Classification classification, CheckScope scope, Set<String> decidedBefore,
			@Nullable LoginAttempt attempt) {
		Identity identity = this.identifier.identify(request);
		LoginProtection login = (attempt != null && scope != CheckScope.COUNTING_EVERY_RESPONSE) ? this.loginProtection
				: null;
		if (classification.excluded() && login != null) {
			// a password guessed through an excluded path (the Actuator's) is guessed all
			// the same
			List<LimitCheck> checks = new ArrayList<>(2);
			addLoginChecks(checks, login, identity, attempt);
			return new RequestPlan(identity, classification, checks, null, false, attempt.account());
		}
		if (classification.excluded()) {
			return unlimited(identity, classification);
		}
		PolicyTable table = this.registry.current();
		List<Policy> applicable;
		RuntimeControl control = this.control;
		if (control != null) {
			if (control.hasAccessRules()) {
				String address = control.accessNeedsAddress() ? this.identifier.address(request) : identity.ip();
				AccessVerdict verdict = control.access(identity, address);
				if (verdict.denied() || verdict.bypasses()) {
					// decided by rule alone: no store is asked
					return verdict.denied()
							? RequestPlan.decided(new Decision.Denied(identity, classification, this.clock.instant()))
							: unlimited(identity, classification);
				}
				if (verdict.tier() != null) {
					identity = identity.withTier(verdict.tier());
				}
			}
			Ban ban = control.ban(identity);
			if (ban != null) {
				return RequestPlan.decided(new Decision.Banned(identity, classification, this.clock.instant(),
						ban.secondsLeft(this.clock.millis())));
			}
			applicable = control.policies(identity, classification.group());
		}
		else {
			applicable = table.policies(identity.tier(), classification.group());
		}
		Decision shed = shed(identity, classification, scope);
		if (shed != null) {
			return RequestPlan.decided(shed);
		}
		ScaledPolicies scaled = this.scaled;
		if (scaled != null) {
			applicable = scaled.inForce(applicable, identity.tier(), classification.group());
		}
		List<LimitCheck> checks = new ArrayList<>(applicable.size() + 2);
		long maxWait = table.options().group(classification.group()).maxWait().toMillis();
		KeyValues keyValues = new KeyValues(request, classification, identity);
		for (Policy policy : applicable) {
			String id = keyValues.idFor(policy);
			if (id != null && scope.covers(policy.countsByOutcome())
					&& (decidedBefore.isEmpty() || !decidedBefore.contains(limitKey(policy, id)))) {
				Decision blocked = addCheck(checks, policy, id, identity, classification, maxWait);
				if (blocked != null) {
					return RequestPlan.decided(blocked);
				}
			}
		}
		InlineLimit inline = classification.inline();
		boolean perUser = identity.user() != null;
		Policy inlinePolicy = (inline != null) ? table.inline(inline, perUser) : null;
		String inlineId = (inlinePolicy != null) ? keyValues.idFor(inlinePolicy) : null;
		if (inline != null && scope.covers(!inline.counts().all()) && (inlineId == null || decidedBefore.isEmpty()
				|| !decidedBefore.contains(limitKey(inlinePolicy, inlineId)))) {
			Decision blocked = addCheck(checks, inlinePolicy, inlineId, identity, classification, maxWait);
			if (blocked != null) {
				return RequestPlan.decided(blocked);
			}
		}
		Policy concurrency = table.groupConcurrency(classification.group(), perUser);
		if (concurrency != null && scope.covers(false)) {
			addCheck(checks, concurrency, identity.idFor(concurrency.dimension()), identity, classification, 0);
		}
		if (login != null) {
			addLoginChecks(checks, login, identity, attempt);
		}
		if (checks.isEmpty()) {
			return unlimited(identity, classification);
		}
		boolean waitingSlot = false;
		if (maxWait > 0) {
			// a request that may wait holds a waiting slot until it knows it need not, or
			// its wait is over
			waitingSlot = this.waiting.tryTake();
			if (!waitingSlot) {
				checks.replaceAll((check) -> (check.maxWaitMillis() > 0)
						? new LimitCheck(check.policy(), check.key(), check.cost(), check.enforced()) : check);
			}
		}
		String account = (attempt != null) ? attempt.account() : null;
		return new RequestPlan(identity, classification, checks, null, waitingSlot, account, keyValues.read(),
				account == null && maxWait == 0);
	}

	/**
	 * The limits a decision decided, each by its policy and caller: what a later decision
	 * of the same request leaves out.
	 */
	static Set<String> decidedLimits(Decision decision) {
		Set<String> limits = new HashSet<>();
		for (PolicyState state : decision.limits().states()) {
			limits.add(limitKey(state.policy(), state.id()));
		}
		if (decision instanceof Decision.Allowed allowed) {
			for (PolicyState state : allowed.observed()) {
				limits.add(limitKey(state.policy(), state.id()));
			}
		}
		return limits;
	}

	private static String limitKey(Policy policy, String id) {
		return policy.name() + '\n' + id;
	}

	// shed after rules and bans, which answer whatever the load, and only once the
	// caller is known: the gate before authentication never sheds
	private @Nullable Decision shed(Identity identity, Classification classification, CheckScope scope) {
		LoadShedder shedder = this.shedder;
		if (shedder == null || scope == CheckScope.OUTCOME_COUNTED) {
			return null;
		}
		Priority priority = shedder.shed(identity.tier(), classification.group());
		return (priority != null) ? new Decision.Shed(identity, classification, this.clock.instant(), priority,
				shedder.retryAfterSeconds()) : null;
	}

	private RequestPlan unlimited(Identity identity, Classification classification) {
		return RequestPlan.decided(new Decision.Unlimited(identity, classification, this.clock.instant()));
	}

	// the budgets of failed logins: one token each, whatever the request's cost, and
	// never a wait
	private void addLoginChecks(List<LimitCheck> checks, LoginProtection login, Identity identity,
			LoginAttempt attempt) {
		checks.add(LimitCheck.enforced(login.perAddress(), this.keys.key(login.perAddress(), identity.ip()), 1));
		Policy perAccount = login.perAccount();
		if (perAccount != null && attempt.account() != null) {
			checks.add(LimitCheck.enforced(perAccount, this.keys.key(perAccount, attempt.account()), 1));
		}
	}

	// adds the check of one policy; answers the decision when the policy blocks the
	// request outright
	private @Nullable Decision addCheck(List<LimitCheck> checks, Policy policy, @Nullable String id, Identity identity,
			Classification classification, long maxWait) {
		if (id == null) {
			return null;
		}
		// a limit of 0, or one whose bucket can never hold the cost: waiting would never
		// help
		if (policy.limit().blocked() || classification.cost() > policy.limit().maxCost()) {
			// a policy that does not enforce never blocks; it has nothing to measure
			// either
			return policy.enforced() ? new Decision.Blocked(identity, classification, this.clock.instant(), policy)
					: null;
		}
		boolean enforced = policy.enforced();
		checks.add(new LimitCheck(policy, this.keys.key(policy, id), classification.cost(), enforced,
				enforced ? maxWait : 0));
		return null;
	}

	/**
	 * The ids of a request's caller in each policy: the identity's, or for a policy of a
	 * key the key's, read from the request when a policy first needs it.
	 */
	private final class KeyValues {

		private final ClientRequest request;

		private final Classification classification;

		private final Identity identity;

		private RequestKeys.@Nullable Values values;

		KeyValues(ClientRequest request, Classification classification, Identity identity) {
			this.request = request;
			this.classification = classification;
			this.identity = identity;
		}

		@Nullable String idFor(Policy policy) {
			String keyName = policy.keyName();
			if (keyName == null) {
				return this.identity.idFor(policy.dimension());
			}
			RequestKeys.Values values = this.values;
			if (values == null) {
				values = RequestPlanner.this.requestKeys.of(this.request, this.classification, this.identity);
				this.values = values;
			}
			return values.id(keyName);
		}

		/** The ids read, by key name: the ids the decision reports. */
		Map<String, String> read() {
			return (this.values != null) ? this.values.ids() : Map.of();
		}

	}

}
