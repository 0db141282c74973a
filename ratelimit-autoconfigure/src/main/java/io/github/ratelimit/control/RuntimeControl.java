package io.github.ratelimit.control;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.ratelimit.identity.Identity;
import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.InvalidRateLimitConfigurationException;
import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.policy.PolicyRegistry;
import io.github.ratelimit.policy.PolicyTable;

/**
 * What operators set at runtime, as this instance applies it: the policy registry, the overrides, the
 * allow and deny rules (configured and runtime) and the bans. The request path reads one immutable
 * snapshot; a background refresh asks the {@link ControlStore} every {@code refreshInterval} whether
 * anything changed and loads it if so, so a change made on any instance applies on every instance within
 * that interval (on the instance that made it, at once). When the store cannot be read, the last
 * snapshot stays in force.
 */
public final class RuntimeControl implements AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(RuntimeControl.class);

	/** Where bans are logged, one line per ban. */
	public static final String BANS_LOGGER = "io.github.ratelimit.bans";

	private static final Logger banLogger = LoggerFactory.getLogger(BANS_LOGGER);

	private final ControlStore store;

	private final PolicyRegistry registry;

	private final List<AccessRule> configuredRules;

	private final BanRules banRules;

	private final Clock clock;

	private final Duration refreshInterval;

	private final AtomicLong bansStarted = new AtomicLong();

	private final AtomicLong failedRefreshes = new AtomicLong();

	private volatile Snapshot snapshot;

	private volatile @Nullable ScheduledExecutorService refresher;

	/**
	 * Creates the control; call {@link #start()} to keep it in step with the store.
	 * @param store where the state is shared
	 * @param registry the policy table in force
	 * @param configuredRules the allow and deny rules from configuration (never in the store)
	 * @param banRules who gets banned
	 * @param clock the clock of expiries
	 * @param refreshInterval how often the store is asked for changes
	 */
	public RuntimeControl(ControlStore store, PolicyRegistry registry, List<AccessRule> configuredRules,
			BanRules banRules, Clock clock, Duration refreshInterval) {
		this.store = store;
		this.registry = registry;
		this.configuredRules = List.copyOf(configuredRules);
		this.banRules = banRules;
		this.clock = clock;
		this.refreshInterval = refreshInterval;
		this.snapshot = new Snapshot(-1, registry.current(), Overrides.NONE, new AccessRules(this.configuredRules),
				List.of(), Map.of());
	}

	/**
	 * Loads the state and refreshes it from then on, in the background: a store that is down (or slow to
	 * connect) delays neither the start nor a request.
	 */
	public synchronized void start() {
		if (this.refresher != null) {
			return;
		}
		ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor((task) -> {
			Thread thread = new Thread(task, "ratelimit-control-refresh");
			thread.setDaemon(true);
			return thread;
		});
		long millis = Math.max(1, this.refreshInterval.toMillis());
		executor.scheduleWithFixedDelay(this::refreshIfChanged, 0, millis, TimeUnit.MILLISECONDS);
		this.refresher = executor;
	}

	@Override
	public synchronized void close() {
		ScheduledExecutorService executor = this.refresher;
		if (executor != null) {
			executor.shutdownNow();
			this.refresher = null;
		}
	}

	/** How often the store is asked for changes: the longest a change takes to reach this instance. */
	public Duration refreshInterval() {
		return this.refreshInterval;
	}

	// ---- the request path

	/** Whether any access rule exists (the request path skips the check otherwise). */
	public boolean hasAccessRules() {
		return !this.snapshot.access.isEmpty();
	}

	/** Whether the access rules need the caller's address. */
	public boolean accessNeedsAddress() {
		return this.snapshot.access.needsAddress();
	}

	/** What the allow and deny rules say about a caller. */
	public AccessVerdict access(Identity identity, String address) {
		AccessRules rules = this.snapshot.access;
		return rules.isEmpty() ? AccessVerdict.NONE : rules.check(identity, address, this.clock.millis());
	}

	/** The ban in force on a caller, or {@code null}. */
	public @Nullable Ban ban(Identity identity) {
		Map<String, Ban> bans = this.snapshot.bans;
		if (bans.isEmpty()) {
			return null;
		}
		Ban ban = bans.get(Subject.banKey(identity));
		return (ban != null && ban.active(this.clock.millis())) ? ban : null;
	}

	/** The policies of a request: its tier's, with the caller's overrides in their place. */
	public List<Policy> policies(Identity identity, String group) {
		Snapshot current = this.snapshot;
		PolicyTable table = this.registry.current();
		List<Policy> policies = table.policies(identity.tier(), group);
		if (current.overrides.isEmpty()) {
			return policies;
		}
		if (current.table != table) {
			current = recompile(current, table);
		}
		return current.overrides.apply(policies, identity, group, this.clock.millis());
	}

	/** Counts a refusal of a caller towards a ban, when its tier or group bans. Never blocks. */
	public void refused(Identity identity, String tier, String group) {
		BanRule rule = this.banRules.ruleFor(tier, group);
		if (rule == null) {
			return;
		}
		String subject = Subject.banKey(identity);
		try {
			this.store.recordRefusal(subject, rule).whenComplete((ban, failure) -> {
				if (failure != null) {
					logger.debug("Could not count a refusal of {} towards a ban", subject, failure);
				}
				else if (ban != null) {
					banned(ban, rule);
				}
			});
		}
		catch (RuntimeException ex) {
			logger.debug("Could not count a refusal of {} towards a ban", subject, ex);
		}
	}

	private void banned(Ban ban, BanRule rule) {
		this.bansStarted.incrementAndGet();
		banLogger.warn("Banned {} until {} (ban {} of this subject; {} refusals within {}); lift it with DELETE "
				+ "/actuator/ratelimits/bans?subject={}", ban.subject(), ban.until(), ban.offence(), rule.refusals(),
				rule.window(), ban.subject());
		synchronized (this) {
			Snapshot current = this.snapshot;
			Map<String, Ban> bans = new HashMap<>(current.bans);
			bans.put(ban.subject(), ban);
			this.snapshot = current.withBans(bans);
		}
	}

	/** How many bans this instance started since it started. */
	public long bansStarted() {
		return this.bansStarted.get();
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
		return this.snapshot.overrideList.stream().filter((override) -> !override.expired(now)).toList();
	}

	/** The live override policies of one identity in one dimension, by group. */
	public Map<String, Policy> overridesOf(Dimension dimension, String id) {
		Snapshot current = this.snapshot;
		if (current.table != this.registry.current()) {
			current = recompile(current, this.registry.current());
		}
		return current.overrides.of(dimension, id, this.clock.millis());
	}

	/** Every access rule in force, configured ones first. */
	public List<AccessRule> rules() {
		long now = this.clock.millis();
		return this.snapshot.access.rules().stream().filter((rule) -> !rule.expired(now)).toList();
	}

	/** Whether a rule comes from configuration (it cannot be deleted at runtime). */
	public boolean isConfigured(AccessRule rule) {
		return this.configuredRules.contains(rule);
	}

	/** The bans in force. */
	public List<Ban> bans() {
		long now = this.clock.millis();
		return this.snapshot.bans.values().stream().filter((ban) -> ban.active(now)).toList();
	}

	/** The ban rule of a tier and group, or {@code null}. */
	public @Nullable BanRule banRule(String tier, String group) {
		return this.banRules.ruleFor(tier, group);
	}

	/**
	 * Sets an override for one identity.
	 * @throws InvalidRateLimitConfigurationException as the startup check reports a bad limit or group
	 */
	public LimitOverride setOverride(Dimension dimension, String id, String group, String limit,
			@Nullable Instant expiresAt) {
		// validated as the properties are: the same parser, the same message
		Policy policy = this.registry.current().overridePolicy("limit", dimension, group, limit);
		LimitOverride override = new LimitOverride(dimension, id, group, policy.limit().spec(), expiresAt);
		this.store.putOverride(override);
		refreshQuietly();
		return override;
	}

	/** Deletes an override; answers whether there was one. */
	public boolean deleteOverride(Dimension dimension, String id, String group) {
		boolean deleted = this.store.deleteOverride(dimension, id, group);
		refreshQuietly();
		return deleted;
	}

	/**
	 * Sets an allow or deny rule at runtime.
	 * @throws InvalidRateLimitConfigurationException when an allow rule names a tier that is not configured
	 */
	public void setRule(AccessRule rule) {
		if (rule.tier() != null && !this.registry.current().hasTier(rule.tier())) {
			throw new InvalidRateLimitConfigurationException("tier", rule.tier(),
					"unknown tier; configured tiers are " + this.registry.current().tiers(), "premium");
		}
		this.store.putRule(rule);
		refreshQuietly();
	}

	/** Deletes the runtime rule of a subject; answers whether there was one. */
	public boolean deleteRule(Subject subject) {
		boolean deleted = this.store.deleteRule(subject);
		refreshQuietly();
		return deleted;
	}

	/** Lifts a ban at once on this instance (on the others within the refresh interval). */
	public boolean liftBan(String subject) {
		boolean lifted = this.store.liftBan(subject);
		synchronized (this) {
			Snapshot current = this.snapshot;
			if (current.bans.containsKey(subject)) {
				Map<String, Ban> bans = new HashMap<>(current.bans);
				lifted |= bans.remove(subject) != null;
				this.snapshot = current.withBans(bans);
			}
		}
		refreshQuietly();
		return lifted;
	}

	// ---- refresh

	/** Loads the state from the store now. */
	public void refresh() {
		long version = this.store.version();
		ControlState state = this.store.load();
		install(version, state);
	}

	private void refreshIfChanged() {
		try {
			if (this.store.version() != this.snapshot.version) {
				refresh();
			}
			this.failedRefreshes.set(0);
		}
		catch (RuntimeException ex) {
			// the last state stays in force; say so once, not every interval
			if (this.failedRefreshes.getAndIncrement() == 0) {
				logger.warn("Could not read the rate-limit runtime control state (overrides, rules, bans); the "
						+ "last one read stays in force until the store answers: {}", ex.toString());
			}
		}
	}

	private void refreshQuietly() {
		try {
			refresh();
		}
		catch (RuntimeException ex) {
			logger.warn("Could not read the rate-limit runtime control state: {}", ex.toString());
		}
	}

	private synchronized void install(long version, ControlState state) {
		PolicyTable table = this.registry.current();
		List<AccessRule> rules = new ArrayList<>(this.configuredRules);
		rules.addAll(state.rules());
		// a ban this instance started was written before it was installed here: the state holds it
		this.snapshot = new Snapshot(version, table, compile(state.overrides(), table), new AccessRules(rules),
				state.overrides(), state.bans());
	}

	private Snapshot recompile(Snapshot current, PolicyTable table) {
		synchronized (this) {
			Snapshot fresh = new Snapshot(current.version, table, compile(current.overrideList, table), current.access,
					current.overrideList, current.bans);
			this.snapshot = fresh;
			return fresh;
		}
	}

	private static Overrides compile(List<LimitOverride> overrides, PolicyTable table) {
		return Overrides.compile(overrides, table, (override, ex) -> logger
			.warn("Skipping the rate-limit override {} (the configuration no longer accepts it): {}", override,
					ex.getMessage()));
	}

	private record Snapshot(long version, PolicyTable table, Overrides overrides, AccessRules access,
			List<LimitOverride> overrideList, Map<String, Ban> bans) {

		Snapshot withBans(Map<String, Ban> bans) {
			return new Snapshot(this.version, this.table, this.overrides, this.access, this.overrideList,
					Map.copyOf(bans));
		}

	}

}
