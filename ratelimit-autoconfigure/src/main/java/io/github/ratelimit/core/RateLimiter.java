package io.github.ratelimit.core;

import java.time.Clock;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import org.jspecify.annotations.Nullable;

import io.github.ratelimit.control.RuntimeControl;
import io.github.ratelimit.identity.ClientRequest;
import io.github.ratelimit.identity.Identifier;
import io.github.ratelimit.load.InFlightRequests;
import io.github.ratelimit.load.ScaledPolicies;
import io.github.ratelimit.policy.Classification;
import io.github.ratelimit.policy.PolicyOptions;
import io.github.ratelimit.policy.PolicyRegistry;
import io.github.ratelimit.policy.PolicyTable;
import io.github.ratelimit.storage.LimitCheck;
import io.github.ratelimit.storage.RateLimitStore;
import io.github.ratelimit.storage.RemoteStore;
import io.github.ratelimit.storage.StoreDecision;

/**
 * The pipeline without the web: plans the checks of a request ({@link RequestPlanner}:
 * the caller, access rules and bans, the policies of its tier and group), lets the store
 * decide every limit at once, and evaluates its answer into a {@link Decision} that names
 * the most actionable reason, or lets the failure mode decide when the store cannot
 * ({@link StoreAnswerEvaluator}). Refusals are recorded ({@link #topRefused()}, bans),
 * and so are {@link #storeFailures() store failures}. The {@code decideAsync} methods
 * never block the calling thread, and their futures never complete exceptionally. Used by
 * the servlet filter and the WebFlux filter alike; built by
 * {@link #builder(Identifier, RateLimitStore)}.
 */
public final class RateLimiter {

	/** How many requests of one instance may wait for tokens at once by default. */
	public static final int DEFAULT_MAX_WAITING = 100;

	private final PolicyRegistry registry;

	private final @Nullable LoginProtection loginProtection;

	private final RateLimitStore store;

	private final WaitingSlots waiting;

	private final RequestPlanner planner;

	private final StoreAnswerEvaluator evaluator;

	private final TopRefused topRefused;

	private final RefusalRecorder refusals;

	private final StoreFailures storeFailures;

	private final @Nullable LocalRefusals localRefusals;

	private final @Nullable HotKeyReserves reserves;

	private final @Nullable RuntimeControl control;

	private final Clock clock;

	private final InFlightRequests inFlight;

	private final @Nullable ScaledPolicies scaledPolicies;

	// what the remembered refusals were given under: a change forgets them
	private volatile @Nullable PolicyTable refusalsTable;

	private volatile long refusalsControlChanges;

	// asked by the filters on every request; worked out once per policy table
	private volatile @Nullable OutcomeCounting outcomeCounting;

	RateLimiter(RateLimiterBuilder settings) {
		this.registry = settings.registry;
		this.loginProtection = settings.loginProtection;
		this.store = settings.store;
		this.waiting = new WaitingSlots(settings.maxWaiting);
		this.planner = new RequestPlanner(settings.identifier, this.registry, settings.control, this.loginProtection,
				this.waiting, settings.storeKeys, settings.clock, settings.requestKeys, settings.loadShedder,
				settings.scaledPolicies);
		this.scaledPolicies = settings.scaledPolicies;
		this.inFlight = settings.inFlight;
		this.storeFailures = new StoreFailures(settings.failureMode, settings.clock);
		this.evaluator = new StoreAnswerEvaluator(this.store, settings.failureMode, settings.fallbackStore,
				this.storeFailures, this.waiting, settings.clock);
		this.topRefused = new TopRefused(TopRefused.DEFAULT_CAPACITY, TopRefused.DEFAULT_PERIOD, settings.clock);
		this.refusals = new RefusalRecorder(this.topRefused, settings.control, this.loginProtection);
		this.control = settings.control;
		this.clock = settings.clock;
		// only a store over the network is worth not asking; memory decides as fast
		boolean remote = this.store instanceof RemoteStore;
		this.localRefusals = (settings.localRefusals && remote)
				? new LocalRefusals(LocalRefusals.DEFAULT_CAPACITY, settings.clock) : null;
		this.reserves = (settings.reserveTokens >= 2 && remote)
				? new HotKeyReserves(this.store, settings.reserveTokens, settings.reserveHold, settings.clock) : null;
		this.refusalsTable = this.registry.current();
	}

	/**
	 * Starts a limiter that identifies callers with {@code identifier} and lets
	 * {@code store} decide: the {@link RateLimiterBuilder} needs its policies next.
	 */
	public static RateLimiterBuilder builder(Identifier identifier, RateLimitStore store) {
		return new RateLimiterBuilder(identifier, store);
	}

	/**
	 * Decides a request, blocking for at most the store's bound (Redis: 5 s, see
	 * {@code RedisRateLimitStore#MAX_WAIT}). An allowed request's
	 * {@link Decision.Allowed#completion()} must be completed by the caller.
	 */
	public Decision decide(ClientRequest request, Classification classification) {
		return decide(request, classification, CheckScope.ALL, Set.of(), null);
	}

	/**
	 * Decides some of a request's limits, blocking as
	 * {@link #decide(ClientRequest, Classification)} does. Access rules and bans apply
	 * whatever the scope. A request none of whose limits is in scope is
	 * {@link Decision.Unlimited}.
	 * @param request the request
	 * @param classification its group and cost
	 * @param scope which limits to decide
	 * @return the decision; an allowed one's {@link Decision.Allowed#completion()} must
	 * be completed by the caller, with the response's final status when
	 * {@link Completion#countsByOutcome()}
	 */
	public Decision decide(ClientRequest request, Classification classification, CheckScope scope) {
		return decide(request, classification, scope, Set.of(), null);
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
		return decide(request, classification, CheckScope.ALL, decidedBefore, null);
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

	/** As {@link #decide(ClientRequest, Classification)}, without blocking. */
	public CompletableFuture<Decision> decideAsync(ClientRequest request, Classification classification) {
		return decideAsync(request, classification, CheckScope.ALL, Set.of(), null);
	}

	/**
	 * As {@link #decide(ClientRequest, Classification, CheckScope)}, without blocking.
	 */
	public CompletableFuture<Decision> decideAsync(ClientRequest request, Classification classification,
			CheckScope scope) {
		return decideAsync(request, classification, scope, Set.of(), null);
	}

	/** As {@link #decide(ClientRequest, Classification, Set)}, without blocking. */
	public CompletableFuture<Decision> decideAsync(ClientRequest request, Classification classification,
			Set<String> decidedBefore) {
		return decideAsync(request, classification, CheckScope.ALL, decidedBefore, null);
	}

	/**
	 * As {@link #decide(ClientRequest, Classification, CheckScope, LoginAttempt)},
	 * without blocking.
	 */
	public CompletableFuture<Decision> decideAsync(ClientRequest request, Classification classification,
			CheckScope scope, @Nullable LoginAttempt attempt) {
		return decideAsync(request, classification, scope, Set.of(), attempt);
	}

	private Decision decide(ClientRequest request, Classification classification, CheckScope scope,
			Set<String> decidedBefore, @Nullable LoginAttempt attempt) {
		long changes = controlChanges();
		PolicyTable table = this.registry.current();
		RequestPlan plan = this.planner.plan(request, classification, scope, decidedBefore, attempt);
		if (plan.decision() != null) {
			return plan.decision();
		}
		Decision local = decidedLocally(plan);
		if (local == null) {
			local = admittedFromReserves(plan);
		}
		if (local != null) {
			return local;
		}
		long askedAt = this.clock.millis();
		StoreDecision storeDecision;
		try {
			storeDecision = this.store.decide(plan.checks());
		}
		catch (RuntimeException ex) {
			return this.evaluator.failed(plan, ex);
		}
		return evaluated(plan, storeDecision, askedAt, changes, table);
	}

	// changes, table: the control's changes and the policies before the plan; a refusal
	// planned under limits since replaced is not remembered
	private Decision evaluated(RequestPlan plan, StoreDecision answer, long askedAt, long changes, PolicyTable table) {
		HotKeyReserves reserves = this.reserves;
		StoreDecision storeDecision = (reserves != null) ? reserves.withReserves(plan.checks(), answer) : answer;
		Decision decision = this.evaluator.evaluate(plan, storeDecision);
		LocalRefusals localRefusals = this.localRefusals;
		if (localRefusals != null && !storeDecision.admitted() && decision instanceof Decision.Rejected
				&& plan.answeredLocally() && changes == controlChanges() && table == this.registry.current()
				&& (reserves == null || !reserves.holdsAny(plan.checks()))) {
			localRefusals.remember(plan.checks(), storeDecision, askedAt);
		}
		return this.refusals.recorded(decision);
	}

	// a refusal the store gave earlier still stands: answered without asking the store
	private @Nullable Decision decidedLocally(RequestPlan plan) {
		if (this.localRefusals == null && this.reserves == null) {
			return null;
		}
		forgetOnChange();
		if (!plan.answeredLocally()) {
			return null;
		}
		return refusedLocally(plan);
	}

	// admitted from the reserves of its hot buckets, or null: the store decides
	private @Nullable Decision admittedFromReserves(RequestPlan plan) {
		HotKeyReserves reserves = this.reserves;
		StoreDecision reserved = (reserves != null && plan.answeredLocally()) ? reserves.admit(plan.checks()) : null;
		return (reserved != null) ? this.refusals.recorded(this.evaluator.evaluate(plan, reserved)) : null;
	}

	// a refusal the store gave earlier still stands: answered without asking it
	private @Nullable Decision refusedLocally(RequestPlan plan) {
		LocalRefusals localRefusals = this.localRefusals;
		if (localRefusals == null || localRefusals.size() == 0) {
			return null;
		}
		long now = this.clock.millis();
		for (LimitCheck check : plan.checks()) {
			if (!LocalRefusals.eligible(check)) {
				continue;
			}
			LocalRefusals.Shortage shortage = localRefusals.shortage(check, now);
			if (shortage != null) {
				this.waiting.release(plan);
				localRefusals.counted();
				return this.refusals.recorded(this.evaluator.refusedLocally(plan, check, shortage, now));
			}
		}
		return null;
	}

	// what refusals remembered and tokens reserved were given under: the overrides and
	// rules, and the share of their size limits are in force at (warm-up, load)
	private long controlChanges() {
		RuntimeControl control = this.control;
		long changes = (control != null) ? control.changes() : 0;
		ScaledPolicies scaled = this.scaledPolicies;
		return (scaled != null) ? changes * 4096 + scaled.state() : changes;
	}

	private void forgetOnChange() {
		PolicyTable table = this.registry.current();
		long changes = controlChanges();
		if (table != this.refusalsTable || changes != this.refusalsControlChanges) {
			if (this.localRefusals != null) {
				this.localRefusals.forgetAll();
			}
			if (this.reserves != null) {
				this.reserves.forgetAll();
			}
			this.refusalsTable = table;
			this.refusalsControlChanges = changes;
		}
	}

	private CompletableFuture<Decision> decideAsync(ClientRequest request, Classification classification,
			CheckScope scope, Set<String> decidedBefore, @Nullable LoginAttempt attempt) {
		long changes = controlChanges();
		PolicyTable table = this.registry.current();
		RequestPlan plan = this.planner.plan(request, classification, scope, decidedBefore, attempt);
		if (plan.decision() != null) {
			return CompletableFuture.completedFuture(plan.decision());
		}
		Decision local = decidedLocally(plan);
		if (local != null) {
			return CompletableFuture.completedFuture(local);
		}
		HotKeyReserves reserves = this.reserves;
		if (reserves == null || !plan.answeredLocally()) {
			return askStore(plan, changes, table);
		}
		return reserves.admitAsync(plan.checks())
			.thenCompose((reserved) -> (reserved != null)
					? CompletableFuture.completedFuture(this.refusals.recorded(this.evaluator.evaluate(plan, reserved)))
					: askStore(plan, changes, table));
	}

	private CompletableFuture<Decision> askStore(RequestPlan plan, long changes, PolicyTable table) {
		long askedAt = this.clock.millis();
		CompletableFuture<StoreDecision> future;
		try {
			future = this.store.decideAsync(plan.checks());
		}
		catch (RuntimeException ex) {
			future = CompletableFuture.failedFuture(ex);
		}
		return future
			.handle((storeDecision, failure) -> (failure != null) ? this.evaluator.failed(plan, unwrap(failure))
					: evaluated(plan, storeDecision, askedAt, changes, table));
	}

	private static Throwable unwrap(Throwable failure) {
		return (failure instanceof CompletionException && failure.getCause() != null) ? failure.getCause() : failure;
	}

	/**
	 * The limits a decision decided, each by its policy and caller: what a later decision
	 * of the same request leaves out
	 * ({@link #decide(ClientRequest, Classification, Set)}).
	 */
	public static Set<String> decidedLimits(Decision decision) {
		return RequestPlanner.decidedLimits(decision);
	}

	/**
	 * Whether a group's limits count only some responses
	 * ({@code ratelimit.groups.<group>.count}): only then has a gate before
	 * authentication anything to decide for them.
	 */
	public boolean countsByOutcome() {
		PolicyTable table = this.registry.current();
		OutcomeCounting known = this.outcomeCounting;
		if (known != null && known.table() == table) {
			return known.counts();
		}
		boolean counts = false;
		for (PolicyOptions.GroupOptions group : table.options().groups().values()) {
			counts |= !group.counts().all();
		}
		this.outcomeCounting = new OutcomeCounting(table, counts);
		return counts;
	}

	/**
	 * The refusals remembered from a remote store and answered without asking it, or
	 * {@code null} when the limiter asks its store every time (a store in memory, or
	 * turned off).
	 */
	public @Nullable LocalRefusals localRefusals() {
		return this.localRefusals;
	}

	/**
	 * The reserves of tokens this instance takes for its hot buckets and spends without
	 * asking the store, or {@code null} when every admission asks the store (a store in
	 * memory, or turned off).
	 */
	public @Nullable HotKeyReserves hotKeyReserves() {
		return this.reserves;
	}

	/**
	 * Forgets what this instance holds of some buckets in memory (remembered refusals,
	 * reserved tokens): an operator reset them.
	 * @param checks the buckets
	 */
	public void forgetLocally(List<LimitCheck> checks) {
		if (this.localRefusals != null) {
			this.localRefusals.forget(checks);
		}
		if (this.reserves != null) {
			this.reserves.forget(checks);
		}
	}

	/** The policies in force. */
	public PolicyTable policies() {
		return this.registry.current();
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

	/** The requests in flight, counted by the web filters for the load signal. */
	public InFlightRequests inFlight() {
		return this.inFlight;
	}

	/** How many requests wait for their tokens now. */
	public int waiting() {
		return this.waiting.count();
	}

	/** Who this instance refused most, in the current and the last period. */
	public TopRefused topRefused() {
		return this.topRefused;
	}

	/**
	 * The decisions the store failed and the failure mode took, for metrics and health.
	 */
	public StoreFailures storeFailures() {
		return this.storeFailures;
	}

	private record OutcomeCounting(PolicyTable table, boolean counts) {
	}

}
