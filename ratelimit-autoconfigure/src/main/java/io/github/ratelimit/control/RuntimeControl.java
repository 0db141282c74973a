package io.github.ratelimit.control;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

import io.github.ratelimit.identity.Identity;
import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.LimitParser;
import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.policy.PolicyRegistry;
import io.github.ratelimit.policy.PolicyTable;

/**
 * What operators set at runtime, as this instance applies it: the policy registry, the
 * overrides, the allow and deny rules (configured and runtime) and the bans; the façade
 * the limiter and the {@code ratelimits} endpoint use. The request path reads one
 * immutable snapshot of the overrides and rules ({@link OverridesAndRules}) and the bans
 * this instance holds ({@link BanKeeper}); a background refresh
 * ({@link ControlRefresher}) asks the {@link ControlStore} every {@code refreshInterval}
 * whether anything changed, so a change made on any instance applies on every instance
 * within that interval (on the instance that made it, at once). When the store cannot be
 * read, the last state stays in force.
 * <p>
 * Bans are not in the snapshot: callers start them, so they are bounded by the store's
 * {@link ControlStore#maxActiveBans()} and travel by what changed.
 */
public final class RuntimeControl implements AutoCloseable {

	/**
	 * Where bans are logged: a line per ban, at most one a second (the next line counts
	 * the others).
	 */
	public static final String BANS_LOGGER = "io.github.ratelimit.bans";

	private final ControlStore store;

	private final PolicyRegistry registry;

	private final BanRules banRules;

	private final Clock clock;

	private final Duration refreshInterval;

	private final OverridesAndRules state;

	private final BanKeeper bans;

	private final ControlRefresher refresher;

	/**
	 * Creates the control; call {@link #start()} to keep it in step with the store.
	 * @param store where the state is shared
	 * @param registry the policy table in force
	 * @param configuredRules the allow and deny rules from configuration (never in the
	 * store)
	 * @param banRules who gets banned
	 * @param clock the clock of expiries
	 * @param refreshInterval how often the store is asked for changes
	 */
	public RuntimeControl(ControlStore store, PolicyRegistry registry, List<AccessRule> configuredRules,
			BanRules banRules, Clock clock, Duration refreshInterval) {
		this.store = store;
		this.registry = registry;
		this.banRules = banRules;
		this.clock = clock;
		this.refreshInterval = refreshInterval;
		this.state = new OverridesAndRules(registry, configuredRules, clock);
		this.bans = new BanKeeper(store, clock);
		this.refresher = new ControlRefresher(store, this.state, this.bans, refreshInterval);
	}

	/**
	 * Loads the state and refreshes it from then on, in the background: a store that is
	 * down (or slow to connect) delays neither the start nor a request.
	 */
	public void start() {
		this.refresher.start();
	}

	@Override
	public void close() {
		this.refresher.close();
	}

	/**
	 * How often the store is asked for changes: the longest a change takes to reach this
	 * instance.
	 */
	public Duration refreshInterval() {
		return this.refreshInterval;
	}

	/** Loads the state from the store now, and the ban changes since the last read. */
	public void refresh() {
		this.refresher.refresh();
	}

	// ---- the request path

	/**
	 * A number that changes whenever overrides or access rules may have changed (on every
	 * load of the state): what was derived from them must be derived again.
	 */
	public long changes() {
		return this.state.installs();
	}

	/** Whether any access rule exists (the request path skips the check otherwise). */
	public boolean hasAccessRules() {
		return !this.state.access().isEmpty();
	}

	/** Whether the access rules need the caller's address. */
	public boolean accessNeedsAddress() {
		return this.state.access().needsAddress();
	}

	/** What the allow and deny rules say about a caller. */
	public AccessVerdict access(Identity identity, String address) {
		AccessRules rules = this.state.access();
		return rules.isEmpty() ? AccessVerdict.NONE : rules.check(identity, address, this.clock.millis());
	}

	/**
	 * Whether a request could be refused by its client address alone: an address rule or
	 * some ban is in force. The gate before authentication lets every request through
	 * untouched otherwise.
	 */
	public boolean guardsAddresses() {
		return this.state.access().needsAddress() || !this.bans.isEmpty();
	}

	/**
	 * What the address rules alone say about a client address (not grouped), before its
	 * caller is known.
	 */
	public AccessVerdict addressAccess(String address) {
		return this.state.access().checkAddress(address, this.clock.millis());
	}

	/** The ban in force on a caller (as {@link Subject#bannedAs}), or {@code null}. */
	public @Nullable Ban ban(Identity identity) {
		return this.bans.isEmpty() ? null : this.bans.get(Subject.banKey(identity));
	}

	/** The ban in force on a subject, or {@code null}. */
	public @Nullable Ban ban(Subject subject) {
		return this.bans.get(subject.banKey());
	}

	/**
	 * The policies of a request: its tier's, with the caller's overrides in their place.
	 */
	public List<Policy> policies(Identity identity, String group) {
		PolicyTable table = this.registry.current();
		List<Policy> policies = table.policies(identity.tier(), group);
		Overrides overrides = this.state.overrides(table);
		return overrides.isEmpty() ? policies : overrides.apply(policies, identity, group, this.clock.millis());
	}

	/**
	 * Counts a refusal of a caller towards a ban, when its tier or group bans. Never
	 * blocks.
	 */
	public void refused(Identity identity, String tier, String group) {
		BanRule rule = this.banRules.ruleFor(tier, group);
		if (rule != null) {
			refused(identity, rule);
		}
	}

	/**
	 * Counts a refusal of a caller towards a ban by a rule of its own (login
	 * protection's). Never blocks.
	 */
	public void refused(Identity identity, BanRule rule) {
		this.bans.refused(Subject.banKey(identity), rule);
	}

	/** How many bans this instance started since it started. */
	public long bansStarted() {
		return this.bans.started();
	}

	/**
	 * How many refusals of this instance would have started a ban but did not: max-active
	 * were in force.
	 */
	public long bansNotStarted() {
		return this.bans.notStarted();
	}

	// ---- operators

	/** The policy table in force. */
	public PolicyTable table() {
		return this.registry.current();
	}

	/** The registry of the policy table. */
	public PolicyRegistry registry() {
		return this.registry;
	}

	/** The overrides in force (live ones). */
	public List<LimitOverride> overrides() {
		long now = this.clock.millis();
		return this.state.overrideList().stream().filter((override) -> !override.expired(now)).toList();
	}

	/** The live override policies of one identity in one dimension, by group. */
	public Map<String, Policy> overridesOf(Dimension dimension, String id) {
		return this.state.overrides(this.registry.current()).of(dimension, id, this.clock.millis());
	}

	/** Every access rule in force, configured ones first. */
	public List<AccessRule> rules() {
		long now = this.clock.millis();
		return this.state.access().rules().stream().filter((rule) -> !rule.expired(now)).toList();
	}

	/** Whether a rule comes from configuration (it cannot be deleted at runtime). */
	public boolean isConfigured(AccessRule rule) {
		return this.state.isConfigured(rule);
	}

	/** The bans in force (at most the store's {@link ControlStore#maxActiveBans()}). */
	public List<Ban> bans() {
		return this.bans.list();
	}

	/** The ban rule of a tier and group, or {@code null}. */
	public @Nullable BanRule banRule(String tier, String group) {
		return this.banRules.ruleFor(tier, group);
	}

	/**
	 * Sets an override for one identity. Everything is checked before anything is
	 * written: what is stored applies on every instance for as long as it lives.
	 * @param dimension the dimension
	 * @param id the identity's id in it, as the limiter keys it (a client address group
	 * for {@code ip})
	 * @param group a configured endpoint group, {@code default} or {@code all}
	 * @param limit a limit string, as the properties take it
	 * @param expiresAt when it ends, in the future and at most
	 * {@link ControlInput#MAX_EXPIRY} ahead; {@code null} for never
	 * @throws InvalidControlInputException naming the field and showing a valid value;
	 * for a bad limit with the reason the startup check gives
	 */
	public LimitOverride setOverride(Dimension dimension, String id, String group, String limit,
			@Nullable Instant expiresAt) {
		String overrideId = ControlInput.id("id", id, ControlInput.exampleId(dimension));
		PolicyTable table = this.registry.current();
		ControlInput.group(table, group);
		Policy policy;
		try {
			// the parser of the properties: the same reasons, the same example
			policy = table.overridePolicy(dimension, group, LimitParser.parse(limit));
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidControlInputException("limit", limit, ex.getMessage(), LimitParser.EXAMPLE);
		}
		ControlInput.expiry("expires", expiresAt, this.clock.instant());
		LimitOverride override = new LimitOverride(dimension, overrideId, group, policy.limit().spec(), expiresAt);
		this.store.putOverride(override);
		this.refresher.refreshQuietly();
		return override;
	}

	/**
	 * Deletes an override; answers whether there was one. The group is not checked
	 * against the configuration: an override of a group since removed can still be
	 * deleted.
	 * @throws InvalidControlInputException when the id or group cannot be one
	 */
	public boolean deleteOverride(Dimension dimension, String id, String group) {
		String overrideId = ControlInput.id("id", id, ControlInput.exampleId(dimension));
		String overrideGroup = ControlInput.id("group", group, "default");
		boolean deleted = this.store.deleteOverride(dimension, overrideId, overrideGroup);
		this.refresher.refreshQuietly();
		return deleted;
	}

	/**
	 * Sets an allow or deny rule at runtime, replacing the runtime rule of the same
	 * subject.
	 * @throws InvalidControlInputException when an allow rule names a tier that is not
	 * configured, or the expiry is in the past or too far ahead
	 */
	public void setRule(AccessRule rule) {
		PolicyTable table = this.registry.current();
		if (rule.tier() != null && !table.hasTier(rule.tier())) {
			throw new InvalidControlInputException("tier", rule.tier(),
					"unknown tier; configured tiers are " + table.tiers(),
					table.tiers().isEmpty() ? "premium" : table.tiers().iterator().next());
		}
		ControlInput.expiry("expires", rule.expiresAt(), this.clock.instant());
		this.store.putRule(rule);
		this.refresher.refreshQuietly();
	}

	/** Deletes the runtime rule of a subject; answers whether there was one. */
	public boolean deleteRule(Subject subject) {
		boolean deleted = this.store.deleteRule(subject);
		this.refresher.refreshQuietly();
		return deleted;
	}

	/**
	 * Lifts a ban at once on this instance (on the others within the refresh interval).
	 */
	public boolean liftBan(Subject subject) {
		boolean lifted = this.bans.lift(subject.banKey());
		this.refresher.refreshQuietly();
		return lifted;
	}

}
