package io.github.ratelimit.core;

import io.github.ratelimit.policy.Classification;

import io.github.ratelimit.identity.Identity;

import io.github.ratelimit.identity.ClientRequest;

import java.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.ratelimit.control.AccessVerdict;
import io.github.ratelimit.control.Ban;
import io.github.ratelimit.control.RuntimeControl;
import io.github.ratelimit.control.Subject;
import io.github.ratelimit.identity.CallerIdentifier;
import io.github.ratelimit.policy.InlineLimit;
import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.Mode;
import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.policy.PolicyRegistry;
import io.github.ratelimit.policy.PolicyTable;
import io.github.ratelimit.storage.BandwidthResult;
import io.github.ratelimit.storage.LimitCheck;
import io.github.ratelimit.storage.Permits;
import io.github.ratelimit.storage.RateLimitStore;
import io.github.ratelimit.storage.StoreDecision;
import io.github.ratelimit.storage.StoreUnavailableException;

/**
 * The pipeline without the web: identify the caller, look up the policies of its tier and
 * the request's group, let the store decide every limit at once, and turn the answer into
 * a {@link Decision} that names the most actionable reason. Used by the servlet filter
 * and the WebFlux filter alike.
 */
public final class RateLimiter {

	private static final Logger logger = LoggerFactory.getLogger(RateLimiter.class);

	/** How many requests of one instance may wait for tokens at once by default. */
	public static final int DEFAULT_MAX_WAITING = 100;

	/** The period of the top refused callers. */
	public static final java.time.Duration TOP_REFUSED_PERIOD = java.time.Duration.ofMinutes(5);

	private final CallerIdentifier identifier;

	private final PolicyRegistry registry;

	private final @Nullable RuntimeControl control;

	private final RateLimitStore store;

	private final FailureMode failureMode;

	private final @Nullable RateLimitStore fallbackStore;

	private final Clock clock;

	private final AtomicLong lastInconsistencyWarning = new AtomicLong(System.nanoTime() - 1_000_000_000L);

	private final AtomicLong inconsistencies = new AtomicLong();

	private final int maxWaiting;

	private final AtomicInteger waiting = new AtomicInteger();

	private final TopRefused topRefused;

	private final LongAdder[] storeFailures = new LongAdder[StoreUnavailableException.Kind.values().length];

	private final FailureModeLog failureModeLog;

	private final @Nullable LoginProtection loginProtection;

	/**
	 * Creates a limiter.
	 * @param identifier identifies callers
	 * @param policies the configured limits
	 * @param store the store that decides
	 * @param failureMode what to do when the store cannot decide
	 * @param fallbackStore the per-instance store used when {@code failureMode} is
	 * {@link FailureMode#LOCAL}
	 * @param clock the clock of {@link Decision#decidedAt()}
	 */
	public RateLimiter(CallerIdentifier identifier, PolicyTable policies, RateLimitStore store, FailureMode failureMode,
			@Nullable RateLimitStore fallbackStore, Clock clock) {
		this(identifier, policies, store, failureMode, fallbackStore, clock, DEFAULT_MAX_WAITING);
	}

	/**
	 * Creates a limiter.
	 * @param identifier identifies callers
	 * @param policies the configured limits
	 * @param store the store that decides
	 * @param failureMode what to do when the store cannot decide
	 * @param fallbackStore the per-instance store used when {@code failureMode} is
	 * {@link FailureMode#LOCAL}
	 * @param clock the clock of {@link Decision#decidedAt()}
	 * @param maxWaiting the most requests of this instance that may wait for tokens at
	 * once ({@code max-wait}); beyond it a request that would wait is refused at once
	 */
	public RateLimiter(CallerIdentifier identifier, PolicyTable policies, RateLimitStore store, FailureMode failureMode,
			@Nullable RateLimitStore fallbackStore, Clock clock, int maxWaiting) {
		this(identifier, new PolicyRegistry(policies), null, store, failureMode, fallbackStore, clock, maxWaiting,
				null);
	}

	/**
	 * Creates a limiter under runtime control: overrides, allow and deny rules and bans
	 * apply, and the policy table is the control's registry's.
	 * @param identifier identifies callers
	 * @param control the runtime control
	 * @param store the store that decides
	 * @param failureMode what to do when the store cannot decide
	 * @param fallbackStore the per-instance store used when {@code failureMode} is
	 * {@link FailureMode#LOCAL}
	 * @param clock the clock of {@link Decision#decidedAt()}
	 * @param maxWaiting the most requests of this instance that may wait for tokens at
	 * once
	 */
	public RateLimiter(CallerIdentifier identifier, RuntimeControl control, RateLimitStore store,
			FailureMode failureMode, @Nullable RateLimitStore fallbackStore, Clock clock, int maxWaiting) {
		this(identifier, control.registry(), control, store, failureMode, fallbackStore, clock, maxWaiting, null);
	}

	/**
	 * Creates a limiter under runtime control that also protects logins: the attempts a
	 * gate before authentication passes in
	 * ({@link #decide(ClientRequest, Classification, CheckScope, LoginAttempt)}) are
	 * counted by {@code loginProtection}.
	 * @param identifier identifies callers
	 * @param control the runtime control
	 * @param store the store that decides
	 * @param failureMode what to do when the store cannot decide
	 * @param fallbackStore the per-instance store used when {@code failureMode} is
	 * {@link FailureMode#LOCAL}
	 * @param clock the clock of {@link Decision#decidedAt()}
	 * @param maxWaiting the most requests of this instance that may wait for tokens at
	 * once
	 * @param loginProtection the budgets of failed logins, or {@code null} for none
	 */
	public RateLimiter(CallerIdentifier identifier, RuntimeControl control, RateLimitStore store,
			FailureMode failureMode, @Nullable RateLimitStore fallbackStore, Clock clock, int maxWaiting,
			@Nullable LoginProtection loginProtection) {
		this(identifier, control.registry(), control, store, failureMode, fallbackStore, clock, maxWaiting,
				loginProtection);
	}

	private RateLimiter(CallerIdentifier identifier, PolicyRegistry registry, @Nullable RuntimeControl control,
			RateLimitStore store, FailureMode failureMode, @Nullable RateLimitStore fallbackStore, Clock clock,
			int maxWaiting, @Nullable LoginProtection loginProtection) {
		this.loginProtection = loginProtection;
		this.registry = registry;
		this.control = control;
		this.topRefused = new TopRefused(TopRefused.DEFAULT_CAPACITY, TOP_REFUSED_PERIOD, clock);
		for (int i = 0; i < this.storeFailures.length; i++) {
			this.storeFailures[i] = new LongAdder();
		}
		this.maxWaiting = maxWaiting;
		if (failureMode == FailureMode.LOCAL && fallbackStore == null) {
			throw new IllegalArgumentException("failure mode LOCAL needs a fallback store");
		}
		this.identifier = identifier;
		this.store = store;
		this.failureMode = failureMode;
		this.fallbackStore = fallbackStore;
		this.clock = clock;
		this.failureModeLog = new FailureModeLog(failureMode, clock);
	}

	/**
	 * Decides a request, blocking for at most the store's bound (Redis: 5 s, see
	 * {@code RedisRateLimitStore#MAX_WAIT}). An admitted request's
	 * {@link Decision#completion()} must be completed by the caller.
	 */
	public Decision decide(ClientRequest request, Classification classification) {
		return decide(request, classification, CheckScope.ALL);
	}

	/**
	 * Decides some of a request's limits, blocking as
	 * {@link #decide(ClientRequest, Classification)} does. Access rules and bans apply
	 * whatever the scope. A request none of whose limits is in scope is
	 * {@link Outcome#UNLIMITED}.
	 * @param request the request
	 * @param classification its group and cost
	 * @param scope which limits to decide
	 * @return the decision; an admitted one's {@link Decision#completion()} must be
	 * completed by the caller, with the response's final status when
	 * {@link Completion#countsByOutcome()}
	 */
	public Decision decide(ClientRequest request, Classification classification, CheckScope scope) {
		return decide(request, classification, scope, Set.of());
	}

	/**
	 * Decides a request's limits but those an earlier decision of the same request
	 * decided ({@link #decidedLimits(Decision)}): the filter after authentication leaves
	 * out what the gate before it decided for the client address, and decides the rest in
	 * one store call.
	 * @param request the request
	 * @param classification its group and cost
	 * @param decidedBefore the limits decided already
	 * @return the decision, as {@link #decide(ClientRequest, Classification, CheckScope)}
	 */
	public Decision decide(ClientRequest request, Classification classification, Set<String> decidedBefore) {
		return decide(request, classification, CheckScope.ALL, decidedBefore);
	}

	/**
	 * Decides the limits of a request in {@code scope} and, for a login attempt, the
	 * budgets of failed logins of its address and of the account it tries
	 * ({@link LoginProtection}), whatever its group (an excluded path included): a gate
	 * before authentication calls this with {@link CheckScope#OUTCOME_COUNTED}.
	 * @param request the request
	 * @param classification its classification
	 * @param scope which of its limits to decide
	 * @param attempt the login attempt, or {@code null} when the request presents no
	 * credentials
	 * @return the decision
	 */
	public Decision decide(ClientRequest request, Classification classification, CheckScope scope,
			@Nullable LoginAttempt attempt) {
		return decide(request, classification, scope, Set.of(), attempt);
	}

	/**
	 * Decides as {@link #decide(ClientRequest, Classification, CheckScope, LoginAttempt)}
	 * without blocking the calling thread. The future never completes exceptionally.
	 */
	public CompletableFuture<Decision> decideAsync(ClientRequest request, Classification classification,
			CheckScope scope, @Nullable LoginAttempt attempt) {
		return decideAsync(request, classification, scope, Set.of(), attempt);
	}

	/**
	 * Whether login attempts are counted ({@code ratelimit.login-protection.enabled}).
	 */
	public boolean protectsLogins() {
		return this.loginProtection != null;
	}

	/** The budgets of failed logins, or {@code null} when logins are not protected. */
	public @Nullable LoginProtection loginProtection() {
		return this.loginProtection;
	}

	private Decision decide(ClientRequest request, Classification classification, CheckScope scope,
			Set<String> decidedBefore) {
		return decide(request, classification, scope, decidedBefore, null);
	}

	private Decision decide(ClientRequest request, Classification classification, CheckScope scope,
			Set<String> decidedBefore, @Nullable LoginAttempt attempt) {
		Plan plan = plan(request, classification, scope, decidedBefore, attempt);
		if (plan.decision != null) {
			return plan.decision;
		}
		StoreDecision storeDecision;
		try {
			storeDecision = this.store.decide(plan.checks);
		}
		catch (RuntimeException ex) {
			return onStoreFailure(plan, ex);
		}
		return recorded(evaluate(plan, storeDecision, this.store));
	}

	/**
	 * Decides a request without blocking the calling thread. The future never completes
	 * exceptionally.
	 */
	public CompletableFuture<Decision> decideAsync(ClientRequest request, Classification classification) {
		return decideAsync(request, classification, CheckScope.ALL);
	}

	/**
	 * Decides some of a request's limits without blocking the calling thread (see
	 * {@link #decide(ClientRequest, Classification, CheckScope)}). The future never
	 * completes exceptionally.
	 */
	public CompletableFuture<Decision> decideAsync(ClientRequest request, Classification classification,
			CheckScope scope) {
		return decideAsync(request, classification, scope, Set.of());
	}

	/**
	 * Decides a request's limits but those decided already without blocking the calling
	 * thread (see {@link #decide(ClientRequest, Classification, Set)}). The future never
	 * completes exceptionally.
	 */
	public CompletableFuture<Decision> decideAsync(ClientRequest request, Classification classification,
			Set<String> decidedBefore) {
		return decideAsync(request, classification, CheckScope.ALL, decidedBefore);
	}

	private CompletableFuture<Decision> decideAsync(ClientRequest request, Classification classification,
			CheckScope scope, Set<String> decidedBefore) {
		return decideAsync(request, classification, scope, decidedBefore, null);
	}

	private CompletableFuture<Decision> decideAsync(ClientRequest request, Classification classification,
			CheckScope scope, Set<String> decidedBefore, @Nullable LoginAttempt attempt) {
		Plan plan = plan(request, classification, scope, decidedBefore, attempt);
		if (plan.decision != null) {
			return CompletableFuture.completedFuture(plan.decision);
		}
		CompletableFuture<StoreDecision> future;
		try {
			future = this.store.decideAsync(plan.checks);
		}
		catch (RuntimeException ex) {
			future = CompletableFuture.failedFuture(ex);
		}
		return future.handle((storeDecision, failure) -> (failure != null) ? onStoreFailure(plan, unwrap(failure))
				: recorded(evaluate(plan, storeDecision, this.store)));
	}

	// a refusal counts in the top refused callers, and towards a ban where the caller's
	// tier or group bans
	private Decision recorded(Decision decision) {
		if (decision.outcome() == Outcome.REJECTED) {
			this.topRefused.record(Subject.banKey(decision.identity()));
			LoginProtection login = this.loginProtection;
			PolicyState binding = decision.binding();
			if (login != null && binding != null && login.owns(binding.policy())) {
				login.refused(binding.policy());
				// an address that keeps trying once its failures are spent is banned; one
				// refused for the
				// account it tries is not (the account's owner may be among them)
				if (this.control != null && binding.policy() == login.perAddress() && login.bans() != null) {
					this.control.refused(decision.identity(), login.bans());
				}
			}
			else if (this.control != null) {
				this.control.refused(decision.identity(), decision.identity().tier(),
						decision.classification().group());
			}
		}
		return decision;
	}

	/**
	 * How many decisions the store failed, of one kind, since this limiter was created.
	 */
	public long storeFailures(StoreUnavailableException.Kind kind) {
		return this.storeFailures[kind.ordinal()].sum();
	}

	/** The decisions the failure mode took: the last one and how many, for health. */
	public FailureModeLog failureModeLog() {
		return this.failureModeLog;
	}

	/**
	 * Who this instance refused most, in the current and the last period (5 minutes
	 * each).
	 */
	public TopRefused topRefused() {
		return this.topRefused;
	}

	/**
	 * The limits a decision decided, each by its policy and caller: what a later decision
	 * of the same request leaves out
	 * ({@link #decide(ClientRequest, Classification, Set)}).
	 */
	public static Set<String> decidedLimits(Decision decision) {
		Set<String> limits = new HashSet<>();
		for (PolicyState state : decision.states()) {
			limits.add(limitKey(state.policy(), state.id()));
		}
		for (PolicyState state : decision.observed()) {
			limits.add(limitKey(state.policy(), state.id()));
		}
		return limits;
	}

	private static String limitKey(Policy policy, String id) {
		return policy.name() + '\n' + id;
	}

	private Plan plan(ClientRequest request, Classification classification, CheckScope scope, Set<String> decidedBefore,
			@Nullable LoginAttempt attempt) {
		Identity identity = this.identifier.identify(request);
		LoginProtection login = (attempt != null && scope != CheckScope.COUNTING_EVERY_RESPONSE) ? this.loginProtection
				: null;
		if (classification.excluded() && login != null) {
			// a password guessed through an excluded path (the Actuator's) is guessed all
			// the same
			List<LimitCheck> checks = new ArrayList<>(2);
			addLoginChecks(checks, login, identity, attempt, classification);
			return new Plan(identity, classification, checks, null, false, attempt.account());
		}
		if (classification.excluded()) {
			return new Plan(identity, classification, List.of(), decision(Outcome.UNLIMITED, identity, classification),
					false, null);
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
					Outcome outcome = verdict.denied() ? Outcome.DENIED : Outcome.UNLIMITED;
					return new Plan(identity, classification, List.of(), decision(outcome, identity, classification),
							false, null);
				}
				if (verdict.tier() != null) {
					identity = identity.withTier(verdict.tier());
				}
			}
			Ban ban = control.ban(identity);
			if (ban != null) {
				Decision banned = new Decision(Outcome.BANNED, identity, classification, List.of(), null,
						ban.secondsLeft(this.clock.millis()), null, this.clock.instant());
				return new Plan(identity, classification, List.of(), banned, false, null);
			}
			applicable = control.policies(identity, classification.group());
		}
		else {
			applicable = table.policies(identity.tier(), classification.group());
		}
		List<LimitCheck> checks = new ArrayList<>(applicable.size() + 2);
		long maxWait = table.options().group(classification.group()).maxWait().toMillis();
		for (Policy policy : applicable) {
			String id = identity.idFor(policy.dimension());
			if (id != null && scope.covers(policy.countsByOutcome())
					&& (decidedBefore.isEmpty() || !decidedBefore.contains(limitKey(policy, id)))) {
				Decision blocked = addCheck(checks, policy, id, identity, classification, maxWait);
				if (blocked != null) {
					return new Plan(identity, classification, List.of(), blocked, false, null);
				}
			}
		}
		InlineLimit inline = classification.inline();
		boolean perUser = identity.user() != null;
		Policy inlinePolicy = (inline != null) ? table.inline(inline, perUser) : null;
		String inlineId = (inlinePolicy != null) ? identity.idFor(inlinePolicy.dimension()) : null;
		if (inline != null && scope.covers(!inline.counts().all()) && (inlineId == null || decidedBefore.isEmpty()
				|| !decidedBefore.contains(limitKey(inlinePolicy, inlineId)))) {
			Policy policy = inlinePolicy;
			Decision blocked = addCheck(checks, policy, identity.idFor(policy.dimension()), identity, classification,
					maxWait);
			if (blocked != null) {
				return new Plan(identity, classification, List.of(), blocked, false, null);
			}
		}
		Policy concurrency = table.groupConcurrency(classification.group(), perUser);
		if (concurrency != null && scope.covers(false)) {
			addCheck(checks, concurrency, identity.idFor(concurrency.dimension()), identity, classification, 0);
		}
		if (login != null) {
			addLoginChecks(checks, login, identity, attempt, classification);
		}
		if (checks.isEmpty()) {
			return new Plan(identity, classification, checks, decision(Outcome.UNLIMITED, identity, classification),
					false, null);
		}
		boolean waitingSlot = false;
		if (maxWait > 0) {
			// a request that may wait holds a waiting slot until it knows it need not, or
			// its wait is over
			waitingSlot = this.waiting.incrementAndGet() <= this.maxWaiting;
			if (!waitingSlot) {
				this.waiting.decrementAndGet();
				checks.replaceAll((check) -> (check.maxWaitMillis() > 0)
						? new LimitCheck(check.policy(), check.key(), check.cost(), check.enforced()) : check);
			}
		}
		return new Plan(identity, classification, checks, null, waitingSlot,
				(attempt != null) ? attempt.account() : null);
	}

	// the budgets of failed logins: one token each, whatever the request's cost, and
	// never a wait
	private static void addLoginChecks(List<LimitCheck> checks, LoginProtection login, Identity identity,
			LoginAttempt attempt, Classification classification) {
		checks.add(LimitCheck.enforced(login.perAddress(), login.perAddress().storeKey(StoreKeys.escape(identity.ip())),
				1));
		Policy perAccount = login.perAccount();
		if (perAccount != null && attempt.account() != null) {
			checks.add(LimitCheck.enforced(perAccount, perAccount.storeKey(StoreKeys.escape(attempt.account())), 1));
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
			return policy.enforced() ? new Decision(Outcome.BLOCKED, identity, classification, List.of(), null, 0,
					policy, this.clock.instant()) : null;
		}
		boolean enforced = policy.enforced();
		checks.add(new LimitCheck(policy, policy.storeKey(StoreKeys.escape(id)), classification.cost(), enforced,
				enforced ? maxWait : 0));
		return null;
	}

	private Decision onStoreFailure(Plan plan, Throwable failure) {
		endWait(plan);
		StoreUnavailableException.Kind kind = (failure instanceof StoreUnavailableException unavailable)
				? unavailable.kind() : StoreUnavailableException.Kind.ERROR;
		this.storeFailures[kind.ordinal()].increment();
		// never silent: a rate-limited WARN says why and what the failure mode did;
		// health reports it
		this.failureModeLog.record(kind, (failure.getMessage() != null) ? failure.getMessage() : failure.toString());
		logger.debug("Rate-limit store failed; failure mode {}", this.failureMode, failure);
		return switch (this.failureMode) {
			case OPEN -> decision(Outcome.ADMITTED_ON_ERROR, plan.identity, plan.classification);
			case CLOSED -> decision(Outcome.UNAVAILABLE, plan.identity, plan.classification);
			case LOCAL -> {
				try {
					yield evaluate(plan, this.fallbackStore.decide(plan.checks), this.fallbackStore);
				}
				catch (RuntimeException ex) {
					yield decision(Outcome.ADMITTED_ON_ERROR, plan.identity, plan.classification);
				}
			}
		};
	}

	// store: the one that decided, which gets back what a response its limits do not
	// count took
	private Decision evaluate(Plan plan, StoreDecision storeDecision, RateLimitStore store) {
		List<LimitCheck> checks = plan.checks;
		List<PolicyState> states = new ArrayList<>();
		List<Decision.Warning> warnings = null;
		List<PolicyState> observed = null;
		PolicyState binding = null;
		long longestWait = -1;
		boolean admitted = storeDecision.admitted();
		for (int i = 0; i < checks.size(); i++) {
			LimitCheck check = checks.get(i);
			List<BandwidthResult> results = storeDecision.results().get(i).bandwidths();
			Policy policy = check.policy();
			Mode mode = policy.mode();
			String id = (policy.dimension() == Dimension.ACCOUNT) ? plan.account
					: plan.identity.idFor(policy.dimension());
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
					warnings = add(warnings, new Decision.Warning(state, true));
				}
				else if (policy.pastWarnAt(b, result.remaining())) {
					warnings = add(warnings, new Decision.Warning(state, false));
				}
				if (admitted) {
					// report the bandwidth closest to exhaustion; earlier (org first)
					// wins ties
					if (binding == null || result.remaining() < binding.remaining()) {
						binding = state;
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
		if (!admitted && binding == null) {
			// a refusal that names no short bucket cannot be explained to the caller: the
			// store is broken,
			// and a broken store gets the failure mode, like one that is down
			warnAboutInconsistentStore(storeDecision);
			return onStoreFailure(plan, new StoreUnavailableException(StoreUnavailableException.Kind.INCONSISTENT,
					"inconsistent store answer", null));
		}
		Outcome outcome = admitted ? Outcome.ALLOWED : Outcome.REJECTED;
		long retryAfter = admitted ? 0 : binding.resetSeconds();
		long waitMillis = admitted ? storeDecision.waitMillis() : 0;
		Completion completion = Completion.NONE;
		OutcomeReservation reservation = admitted ? OutcomeReservation.of(checks, storeDecision, store) : null;
		if (waitMillis > 0 && plan.waitingSlot) {
			completion = new Completion(storeDecision.permits(), this::endWait, reservation);
		}
		else {
			endWait(plan);
			if (storeDecision.permits() != Permits.NONE || reservation != null) {
				completion = new Completion(storeDecision.permits(), null, reservation);
			}
		}
		// states is this method's own list: wrap it rather than copy it
		return new Decision(outcome, plan.identity, plan.classification, Collections.unmodifiableList(states), binding,
				retryAfter, null, this.clock.instant(), (warnings != null) ? warnings : List.of(),
				(observed != null) ? observed : List.of(), waitMillis, completion);
	}

	private void endWait(Plan plan) {
		if (plan.waitingSlot) {
			endWait();
		}
	}

	private void endWait() {
		this.waiting.decrementAndGet();
	}

	/** How many requests wait for their tokens now. */
	public int waiting() {
		return this.waiting.get();
	}

	private static <T> List<T> add(@Nullable List<T> list, T element) {
		List<T> result = (list != null) ? list : new ArrayList<>(2);
		result.add(element);
		return result;
	}

	// at most one line a second: a broken store answers every request the same way
	private void warnAboutInconsistentStore(StoreDecision storeDecision) {
		long now = System.nanoTime();
		long last = this.lastInconsistencyWarning.get();
		if (now - last >= 1_000_000_000L && this.lastInconsistencyWarning.compareAndSet(last, now)) {
			logger.warn(
					"The rate-limit store refused a request but reported no short bucket ({} more since the "
							+ "last line); failure mode {} applies: {}",
					this.inconsistencies.getAndSet(0), this.failureMode, storeDecision);
		}
		else {
			this.inconsistencies.incrementAndGet();
		}
	}

	private Decision decision(Outcome outcome, Identity identity, Classification classification) {
		return new Decision(outcome, identity, classification, List.of(), null, 0, null, this.clock.instant());
	}

	private static long ceilSeconds(long millis) {
		return (millis + 999) / 1000;
	}

	private static Throwable unwrap(Throwable failure) {
		return (failure instanceof CompletionException && failure.getCause() != null) ? failure.getCause() : failure;
	}

	/**
	 * Whether a group's limits count only some responses
	 * ({@code ratelimit.groups.<group>.count}): only then has a gate before
	 * authentication anything to decide for them.
	 */
	public boolean countsByOutcome() {
		return this.registry.current().options().groups().values().stream().anyMatch((group) -> !group.counts().all());
	}

	/** The policies in force. */
	public PolicyTable policies() {
		return this.registry.current();
	}

	/** The runtime control of this limiter, or {@code null} when it has none. */
	public @Nullable RuntimeControl control() {
		return this.control;
	}

	/**
	 * @param account the hash of the account a login attempt tries, the id of its account
	 * check
	 */
	private record Plan(Identity identity, Classification classification, List<LimitCheck> checks,
			@Nullable Decision decision, boolean waitingSlot, @Nullable String account) {
	}

}
