package io.github.ratelimit.core;

import java.time.Clock;
import java.time.Duration;

import org.jspecify.annotations.Nullable;

import io.github.ratelimit.control.RuntimeControl;
import io.github.ratelimit.identity.ClientRequest;
import io.github.ratelimit.identity.Identifier;
import io.github.ratelimit.load.InFlightRequests;
import io.github.ratelimit.load.LoadShedder;
import io.github.ratelimit.load.ScaledPolicies;
import io.github.ratelimit.policy.Classification;
import io.github.ratelimit.policy.PolicyRegistry;
import io.github.ratelimit.policy.PolicyTable;
import io.github.ratelimit.storage.RateLimitStore;
import io.github.ratelimit.storage.StoreKeys;

/**
 * Assembles a {@link RateLimiter}
 * ({@link RateLimiter#builder(Identifier, RateLimitStore)}). Its policies come either
 * from a {@link #control(RuntimeControl) runtime control} (overrides, allow and deny
 * rules and bans apply; the auto-configuration does this) or from a
 * {@link #policies(PolicyTable) fixed table}; everything else has a default: failure mode
 * {@link FailureMode#OPEN}, the system clock in UTC,
 * {@link RateLimiter#DEFAULT_MAX_WAITING} waiting requests, no login protection, keys
 * under {@value StoreKeys#DEFAULT_PREFIX}.
 */
public final class RateLimiterBuilder {

	final Identifier identifier;

	final RateLimitStore store;

	@Nullable PolicyRegistry registry;

	@Nullable RuntimeControl control;

	FailureMode failureMode = FailureMode.OPEN;

	@Nullable RateLimitStore fallbackStore;

	Clock clock = Clock.systemUTC();

	int maxWaiting = RateLimiter.DEFAULT_MAX_WAITING;

	boolean localRefusals = true;

	long reserveTokens = HotKeyReserves.DEFAULT_MAX_TOKENS;

	Duration reserveHold = HotKeyReserves.DEFAULT_HOLD;

	@Nullable LoginProtection loginProtection;

	StoreKeys storeKeys = new StoreKeys(StoreKeys.DEFAULT_PREFIX);

	RequestKeys requestKeys = RequestKeys.NONE;

	InFlightRequests inFlight = new InFlightRequests();

	@Nullable LoadShedder loadShedder;

	@Nullable ScaledPolicies scaledPolicies;

	RateLimiterBuilder(Identifier identifier, RateLimitStore store) {
		this.identifier = identifier;
		this.store = store;
	}

	/**
	 * Limits by a fixed table, with no runtime control.
	 * @param policies the configured limits
	 * @return this builder
	 */
	public RateLimiterBuilder policies(PolicyTable policies) {
		this.registry = new PolicyRegistry(policies);
		this.control = null;
		return this;
	}

	/**
	 * Limits under runtime control: overrides, allow and deny rules and bans apply, and
	 * the policy table is the control's registry's.
	 * @param control the runtime control
	 * @return this builder
	 */
	public RateLimiterBuilder control(RuntimeControl control) {
		this.registry = control.registry();
		this.control = control;
		return this;
	}

	/**
	 * What to do when the store cannot decide.
	 * @param failureMode the failure mode
	 * @param fallbackStore the per-instance store used when {@code failureMode} is
	 * {@link FailureMode#LOCAL}, or {@code null}
	 * @return this builder
	 */
	public RateLimiterBuilder failureMode(FailureMode failureMode, @Nullable RateLimitStore fallbackStore) {
		this.failureMode = failureMode;
		this.fallbackStore = fallbackStore;
		return this;
	}

	/**
	 * The clock of {@link Decision#decidedAt()}, of bans and of the top refused callers.
	 * @param clock the clock
	 * @return this builder
	 */
	public RateLimiterBuilder clock(Clock clock) {
		this.clock = clock;
		return this;
	}

	/**
	 * Whether refusals a remote store gave are remembered until the bucket refills and
	 * answered without asking it ({@link LocalRefusals}); on by default, and only ever
	 * for a {@link io.github.ratelimit.storage.RemoteStore}.
	 * @param enabled whether to remember refusals
	 * @return this builder
	 */
	public RateLimiterBuilder localRefusals(boolean enabled) {
		this.localRefusals = enabled;
		return this;
	}

	/**
	 * Whether hot buckets of a remote store take reserves of tokens spent on this
	 * instance without asking the store ({@link HotKeyReserves}); on by default with
	 * reserves of at most {@value HotKeyReserves#DEFAULT_MAX_TOKENS} tokens held
	 * {@link HotKeyReserves#DEFAULT_HOLD}, and only ever for a
	 * {@link io.github.ratelimit.storage.RemoteStore}.
	 * @param maxTokens the most tokens one bucket's reserve takes; 0 turns reserves off
	 * @param hold how long a reserve's tokens are held before the unspent ones go back
	 * @return this builder
	 */
	public RateLimiterBuilder hotKeyReserves(long maxTokens, Duration hold) {
		if (maxTokens == 1 || maxTokens < 0) {
			throw new IllegalArgumentException("maxTokens must be 0 (off) or at least 2, was " + maxTokens);
		}
		if (hold.isNegative() || hold.isZero()) {
			throw new IllegalArgumentException("hold must be positive, was " + hold);
		}
		this.reserveTokens = maxTokens;
		this.reserveHold = hold;
		return this;
	}

	/**
	 * The most requests of this instance that may wait for tokens at once
	 * ({@code max-wait}); beyond it a request that would wait is refused at once.
	 * @param maxWaiting the most waiting requests
	 * @return this builder
	 */
	public RateLimiterBuilder maxWaiting(int maxWaiting) {
		this.maxWaiting = maxWaiting;
		return this;
	}

	/**
	 * Protects logins: the attempts a gate before authentication passes in
	 * ({@link RateLimiter#decide(ClientRequest, Classification, CheckScope, LoginAttempt)})
	 * are counted by {@code loginProtection}.
	 * @param loginProtection the budgets of failed logins, or {@code null} for none
	 * @return this builder
	 */
	public RateLimiterBuilder loginProtection(@Nullable LoginProtection loginProtection) {
		this.loginProtection = loginProtection;
		return this;
	}

	/**
	 * The layout of the keys the limiter asks the store about (their namespace,
	 * {@code ratelimit.storage.key-prefix}); {@value StoreKeys#DEFAULT_PREFIX} by
	 * default.
	 * @param storeKeys the key layout
	 * @return this builder
	 */
	public RateLimiterBuilder storeKeys(StoreKeys storeKeys) {
		this.storeKeys = storeKeys;
		return this;
	}

	/**
	 * The keys of the application's choosing that limits of {@code Dimension.KEY} count
	 * by ({@code ratelimit.keys}); none by default, and a policy of a key without a
	 * resolver then applies to no request.
	 * @param requestKeys the keys and their resolvers
	 * @return this builder
	 */
	public RateLimiterBuilder requestKeys(RequestKeys requestKeys) {
		this.requestKeys = requestKeys;
		return this;
	}

	/**
	 * Builds the limiter.
	 * @return the limiter
	 * @throws IllegalStateException when neither policies nor a runtime control were
	 * given
	 * @throws IllegalArgumentException when the failure mode is {@link FailureMode#LOCAL}
	 * with no fallback store
	 */
	/**
	 * Sheds load by priority and scales limits while loaded or warming up
	 * ({@code ratelimit.load}, {@code ratelimit.warm-up}).
	 * @param inFlight the requests in flight, counted by the web filters
	 * @param shedder sheds load, or {@code null} for none
	 * @param scaled the policies in force at their share, or {@code null} for limits
	 * always at their configured size
	 * @return this builder
	 */
	public RateLimiterBuilder load(InFlightRequests inFlight, @Nullable LoadShedder shedder,
			@Nullable ScaledPolicies scaled) {
		this.inFlight = inFlight;
		this.loadShedder = shedder;
		this.scaledPolicies = scaled;
		return this;
	}

	public RateLimiter build() {
		if (this.registry == null) {
			throw new IllegalStateException("a limiter needs policies or a runtime control");
		}
		if (this.failureMode == FailureMode.LOCAL && this.fallbackStore == null) {
			throw new IllegalArgumentException("failure mode LOCAL needs a fallback store");
		}
		return new RateLimiter(this);
	}

}
