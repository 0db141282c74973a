package io.github.ratelimit.metrics;

import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.jspecify.annotations.Nullable;

import io.github.ratelimit.control.RuntimeControl;
import io.github.ratelimit.core.Decision;
import io.github.ratelimit.core.DecisionListener;
import io.github.ratelimit.core.DenialReason;
import io.github.ratelimit.core.HotKeyReserves;
import io.github.ratelimit.core.LimitReport;
import io.github.ratelimit.core.LocalRefusals;
import io.github.ratelimit.core.LoginProtection;
import io.github.ratelimit.core.Outcome;
import io.github.ratelimit.core.PolicyState;
import io.github.ratelimit.core.RateLimiter;
import io.github.ratelimit.policy.Mode;
import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.storage.RateLimitStore;
import io.github.ratelimit.storage.RemoteStore;
import io.github.ratelimit.storage.StoreUnavailableException;

/**
 * The limiter's meters, told of every decision as a {@link DecisionListener}:
 * <ul>
 * <li>{@value #DECISIONS} (counter): tags {@code outcome} (allowed, rejected, observed,
 * warned, blocked, denied, banned, error, unavailable, shed), {@code scope} (the
 * dimension of the binding limit, a configured key's name for a limit by key, or none),
 * {@code tier}, {@code group}, {@code mode} (of the binding limit, or none);</li>
 * <li>{@value #WARNINGS} (counter): one per {@code RateLimit-Warning} item, tags
 * {@code code} (near-limit, over-limit), {@code scope}, {@code tier}, {@code group};</li>
 * <li>{@value #LATENCY} (timer): how long deciding took, store round trip included, tag
 * {@code store};</li>
 * <li>{@value #STORE_ERRORS} (counter): decisions the store could not make, tags
 * {@code store} and {@code kind} (timeout, not-connected, circuit-open, overloaded,
 * refused, inconsistent, error);</li>
 * <li>{@value #CIRCUIT} (gauge, Redis stores): 0 closed, 0.5 half-open, 1 open, tag
 * {@code store};</li>
 * <li>{@value #WAITING} (gauge): requests waiting for their tokens now
 * ({@code max-wait});</li>
 * <li>{@value #BANS} (counter): bans this instance started;</li>
 * <li>{@value #BANS_NOT_STARTED} (counter): refusals that would have started a ban while
 * {@code ratelimit.bans.max-active} were in force;</li>
 * <li>{@value #LOGIN_FAILURES} (counter): failed login attempts counted
 * ({@code ratelimit.login-protection});</li>
 * <li>{@value #LOGIN_REFUSED} (counter, tag {@code scope}: {@code address} or
 * {@code account}): login attempts refused before authentication because their address,
 * or the account they tried, spent its failures;</li>
 * <li>{@value #GATE_REFUSALS} (counter, tag {@code reason}: {@code geo} or
 * {@code reputation}): requests the gate refused by the country rules or a reputation
 * deny list (they are {@code denied} decisions too).</li>
 * <li>{@value #SHED} (counter, tags {@code tier}, {@code group}, {@code priority}):
 * requests shed while the service was overloaded ({@code ratelimit.load}).</li>
 * </ul>
 * Requests no limit applies to (excluded paths, allow-listed callers) are not counted.
 */
public final class RateLimitMetrics implements DecisionListener, MeterBinder {

	/** Decided requests, by outcome, scope, tier, group and mode. */
	public static final String DECISIONS = "ratelimit.decisions";

	/** {@code RateLimit-Warning} items written. */
	public static final String WARNINGS = "ratelimit.warnings";

	/** How long deciding took, store round trip included. */
	public static final String LATENCY = "ratelimit.decision.latency";

	/** The store's circuit breaker: 0 closed, 0.5 half-open, 1 open. */
	public static final String CIRCUIT = "ratelimit.store.circuit";

	/** Requests waiting for their tokens. */
	public static final String WAITING = "ratelimit.waiting";

	/** Decisions the store could not make, by kind. */
	public static final String STORE_ERRORS = "ratelimit.store.errors";

	/** Refusals answered from memory without asking the remote store. */
	public static final String LOCAL_REFUSALS = "ratelimit.refusals.local";

	/** Admissions from the reserves of hot buckets, without asking the remote store. */
	public static final String LOCAL_ADMISSIONS = "ratelimit.admissions.local";

	/** Tokens this instance holds in reserves of hot buckets. */
	public static final String RESERVED_TOKENS = "ratelimit.reserves.tokens";

	/** Bans this instance started. */
	public static final String BANS = "ratelimit.bans.started";

	/** Refusals that would have started a ban while the most bans were in force. */
	public static final String BANS_NOT_STARTED = "ratelimit.bans.not-started";

	/** Failed login attempts counted by login protection. */
	public static final String LOGIN_FAILURES = "ratelimit.login.failures";

	/** Login attempts refused before authentication, by scope. */
	public static final String LOGIN_REFUSED = "ratelimit.login.refused";

	/** Requests refused at the gate by country rules or reputation lists, by reason. */
	public static final String GATE_REFUSALS = "ratelimit.gate.refusals";

	/** Requests shed while the service was overloaded, by tier, group and priority. */
	public static final String SHED = "ratelimit.shed";

	private static final String NONE = "none";

	private static final String[] MODE_TAGS = Arrays.stream(Mode.values())
		.map((mode) -> mode.name().toLowerCase(Locale.ROOT))
		.toArray(String[]::new);

	private final RateLimiter limiter;

	private final RateLimitStore store;

	private final @Nullable RuntimeControl control;

	private final String storeName;

	private final Map<DecisionKey, Counter> decisions = new ConcurrentHashMap<>();

	private final Map<WarningKey, Counter> warnings = new ConcurrentHashMap<>();

	private final Map<DenialReason, Counter> gateRefusals = new ConcurrentHashMap<>();

	private final Map<ShedKey, Counter> shed = new ConcurrentHashMap<>();

	private volatile @Nullable MeterRegistry registry;

	private volatile @Nullable Timer latency;

	public RateLimitMetrics(RateLimiter limiter, RateLimitStore store, @Nullable RuntimeControl control) {
		this.limiter = limiter;
		this.store = store;
		this.control = control;
		this.storeName = storeName(store);
	}

	@Override
	public void bindTo(MeterRegistry registry) {
		this.latency = Timer.builder(LATENCY)
			.description("How long rate-limit decisions take, store round trip included")
			.tag("store", this.storeName)
			.register(registry);
		Gauge.builder(WAITING, this.limiter, RateLimiter::waiting)
			.description("Requests waiting for their tokens (max-wait)")
			.register(registry);
		if (this.store instanceof RemoteStore remote) {
			Gauge.builder(CIRCUIT, remote, (s) -> circuit(s.circuit()))
				.description("The Redis store's circuit breaker: 0 closed, 0.5 half-open, 1 open")
				.tag("store", this.storeName)
				.register(registry);
		}
		LocalRefusals localRefusals = this.limiter.localRefusals();
		if (localRefusals != null) {
			FunctionCounter.builder(LOCAL_REFUSALS, localRefusals, LocalRefusals::refused)
				.description("Refusals answered from memory, the store having refused the bucket until later")
				.tag("store", this.storeName)
				.register(registry);
		}
		HotKeyReserves reserves = this.limiter.hotKeyReserves();
		if (reserves != null) {
			FunctionCounter.builder(LOCAL_ADMISSIONS, reserves, HotKeyReserves::admitted)
				.description("Admissions from tokens taken from the store in advance for hot buckets")
				.tag("store", this.storeName)
				.register(registry);
			Gauge.builder(RESERVED_TOKENS, reserves, HotKeyReserves::held)
				.description("Tokens this instance holds in reserves of hot buckets")
				.tag("store", this.storeName)
				.register(registry);
		}
		for (StoreUnavailableException.Kind kind : StoreUnavailableException.Kind.values()) {
			FunctionCounter.builder(STORE_ERRORS, this.limiter, (limiter) -> limiter.storeFailures().count(kind))
				.description("Decisions the store could not make, by kind (they got the failure mode)")
				.tags("store", this.storeName, "kind", kind.tag())
				.register(registry);
		}
		if (this.control != null) {
			FunctionCounter.builder(BANS, this.control, RuntimeControl::bansStarted)
				.description("Bans this instance started")
				.register(registry);
			FunctionCounter.builder(BANS_NOT_STARTED, this.control, RuntimeControl::bansNotStarted)
				.description("Refusals that would have started a ban while ratelimit.bans.max-active were in force")
				.register(registry);
		}
		LoginProtection login = this.limiter.loginProtection();
		if (login != null) {
			FunctionCounter.builder(LOGIN_FAILURES, login, LoginProtection::failuresCounted)
				.description("Failed login attempts counted")
				.register(registry);
			FunctionCounter.builder(LOGIN_REFUSED, login, LoginProtection::addressesThrottled)
				.description("Login attempts refused because their address spent its failed attempts")
				.tag("scope", "address")
				.register(registry);
			FunctionCounter.builder(LOGIN_REFUSED, login, LoginProtection::accountsThrottled)
				.description("Login attempts refused because the account they tried spent its failed attempts")
				.tag("scope", "account")
				.register(registry);
		}
		this.registry = registry;
	}

	@Override
	public void onDecision(Decision decision, long elapsedNanos) {
		MeterRegistry registry = this.registry;
		if (registry == null || decision instanceof Decision.Unlimited) {
			return;
		}
		String tier = decision.identity().tier();
		String group = decision.classification().group();
		DecisionKey key = key(decision, tier, group);
		Counter counter = this.decisions.get(key);
		if (counter == null) {
			counter = this.decisions.computeIfAbsent(key,
					(k) -> Counter.builder(DECISIONS)
						.description("Rate-limit decisions")
						.tags("outcome", k.outcome, "scope", k.scope, "tier", k.tier, "group", k.group, "mode", k.mode)
						.register(registry));
		}
		counter.increment();
		if (decision instanceof Decision.Denied denied && denied.reason() != DenialReason.ACCESS_RULE) {
			this.gateRefusals
				.computeIfAbsent(denied.reason(),
						(reason) -> Counter.builder(GATE_REFUSALS)
							.description("Requests refused at the gate by country rules or reputation lists")
							.tag("reason", reason.tag())
							.register(registry))
				.increment();
		}
		if (decision instanceof Decision.Shed shedDecision) {
			this.shed
				.computeIfAbsent(new ShedKey(tier, group, shedDecision.priority().toString()),
						(k) -> Counter.builder(SHED)
							.description("Requests shed while the service was overloaded (503 load_shed)")
							.tags("tier", k.tier, "group", k.group, "priority", k.priority)
							.register(registry))
				.increment();
		}
		for (LimitReport.Warning warning : decision.limits().warnings()) {
			WarningKey warningKey = new WarningKey(warning.overLimit() ? "over-limit" : "near-limit",
					warning.state().policy().dimensionName(), tier, group);
			this.warnings
				.computeIfAbsent(warningKey,
						(k) -> Counter.builder(WARNINGS)
							.description("RateLimit-Warning items: past a soft limit, or over a limit in warn mode")
							.tags("code", k.code, "scope", k.scope, "tier", k.tier, "group", k.group)
							.register(registry))
				.increment();
		}
		Timer timer = this.latency;
		if (timer != null) {
			timer.record(elapsedNanos, TimeUnit.NANOSECONDS);
		}
	}

	private static DecisionKey key(Decision decision, String tier, String group) {
		PolicyState binding = decision.limits().binding();
		String scope = (binding != null) ? binding.policy().dimensionName() : NONE;
		String mode = (binding != null) ? mode(binding.policy()) : NONE;
		String outcome = outcome(decision.outcome());
		if (decision instanceof Decision.Allowed allowed) {
			// what a policy in observe or warn mode would have refused is named as such
			if (!allowed.observed().isEmpty()) {
				outcome = "observed";
				scope = allowed.observed().get(0).policy().dimensionName();
				mode = "observe";
			}
			else {
				for (LimitReport.Warning warning : allowed.limits().warnings()) {
					if (warning.overLimit()) {
						outcome = "warned";
						scope = warning.state().policy().dimensionName();
						mode = "warn";
						break;
					}
				}
			}
		}
		else if (decision instanceof Decision.Blocked blocked) {
			scope = blocked.blockedBy().dimensionName();
			mode = mode(blocked.blockedBy());
		}
		return new DecisionKey(outcome, scope, tier, group, mode);
	}

	/** The {@code outcome} tag. */
	private static String outcome(Outcome outcome) {
		return switch (outcome) {
			case UNLIMITED -> "unlimited";
			case ALLOWED -> "allowed";
			case REJECTED -> "rejected";
			case BLOCKED -> "blocked";
			case DENIED -> "denied";
			case BANNED -> "banned";
			case ADMITTED_ON_ERROR -> "error";
			case UNAVAILABLE -> "unavailable";
			case SHED -> "shed";
		};
	}

	// the tag of each mode, made once: not a new string (and hash) on every decision
	private static String mode(Policy policy) {
		return MODE_TAGS[policy.mode().ordinal()];
	}

	private static double circuit(RemoteStore.Circuit circuit) {
		return switch (circuit) {
			case CLOSED -> 0;
			case HALF_OPEN -> 0.5;
			case OPEN -> 1;
		};
	}

	private static String storeName(RateLimitStore store) {
		return store.name();
	}

	private record DecisionKey(String outcome, String scope, String tier, String group, String mode) {
	}

	private record WarningKey(String code, String scope, String tier, String group) {
	}

	private record ShedKey(String tier, String group, String priority) {
	}

}
