package io.github.ratelimit.control;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.ratelimit.identity.Identity;
import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.LimitParser;
import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.policy.PolicyRegistry;
import io.github.ratelimit.policy.PolicyTable;

/**
 * What operators set at runtime, as this instance applies it: the policy registry, the
 * overrides, the allow and deny rules (configured and runtime) and the bans. The request
 * path reads one immutable snapshot; a background refresh asks the {@link ControlStore}
 * every {@code refreshInterval} whether anything changed and loads it if so, so a change
 * made on any instance applies on every instance within that interval (on the instance
 * that made it, at once). When the store cannot be read, the last snapshot stays in
 * force.
 * <p>
 * Bans are not in the snapshot: callers start them, so they are bounded by the store's
 * {@link ControlStore#maxActiveBans()} and held in a concurrent map that the request path
 * reads without a lock; the refresh reads only the bans that started or were lifted since
 * its last read.
 */
public final class RuntimeControl implements AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(RuntimeControl.class);

	/**
	 * Where bans are logged: a line per ban, at most one a second (the next line counts
	 * the others).
	 */
	public static final String BANS_LOGGER = "io.github.ratelimit.bans";

	/** Ban changes read in one refresh at most, in the store's batches. */
	private static final int MAX_BAN_BATCHES_PER_REFRESH = 10;

	/** Failures to count a refusal are logged once in this interval at most. */
	private static final long REFUSAL_FAILURE_LOG_MILLIS = 60_000;

	/** How many skipped records are remembered as logged. */
	private static final int MAX_REPORTED_SKIPS = 1000;

	private final ControlStore store;

	private final PolicyRegistry registry;

	private final List<AccessRule> configuredRules;

	private final BanRules banRules;

	private final Clock clock;

	private final Duration refreshInterval;

	private final AtomicLong bansStarted = new AtomicLong();

	private final AtomicLong failedRefreshes = new AtomicLong();

	/** The stored records skipped as unusable and already logged. */
	private final Set<String> reportedSkips = ConcurrentHashMap.newKeySet();

	private final AtomicLong failedBanReads = new AtomicLong();

	private final AtomicLong bansNotStarted = new AtomicLong();

	private final AtomicLong nextRefusalFailureLog = new AtomicLong(Long.MIN_VALUE);

	private final ActiveBans bans;

	private final BanLog banLog = new BanLog(LoggerFactory.getLogger(BANS_LOGGER));

	private final Object banReads = new Object();

	private @Nullable String banCursor;

	private volatile Snapshot snapshot;

	private volatile @Nullable ScheduledExecutorService refresher;

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
		this.configuredRules = List.copyOf(configuredRules);
		this.banRules = banRules;
		this.clock = clock;
		this.refreshInterval = refreshInterval;
		this.snapshot = new Snapshot(-1, registry.current(), Overrides.NONE, new AccessRules(this.configuredRules),
				List.of());
		this.bans = new ActiveBans(store.maxActiveBans());
	}

	/**
	 * Loads the state and refreshes it from then on, in the background: a store that is
	 * down (or slow to connect) delays neither the start nor a request.
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
			// first, so that a read the shutdown interrupts is not reported as a store
			// failure
			this.refresher = null;
			executor.shutdownNow();
		}
	}

	/**
	 * How often the store is asked for changes: the longest a change takes to reach this
	 * instance.
	 */
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
		if (this.bans.isEmpty()) {
			return null;
		}
		return this.bans.get(Subject.banKey(identity), this.clock.millis());
	}

	/**
	 * Whether a request could be refused by its client address alone: an address rule or
	 * some ban is in force. The gate before authentication lets every request through
	 * untouched otherwise.
	 */
	public boolean guardsAddresses() {
		return this.snapshot.access.needsAddress() || !this.bans.isEmpty();
	}

	/**
	 * What the address rules alone say about a client address (not grouped), before its
	 * caller is known.
	 */
	public AccessVerdict addressAccess(String address) {
		return this.snapshot.access.checkAddress(address, this.clock.millis());
	}

	/** The ban in force on a subject, or {@code null}. */
	public @Nullable Ban ban(Subject subject) {
		if (this.bans.isEmpty()) {
			return null;
		}
		return this.bans.get(subject.banKey(), this.clock.millis());
	}

	/**
	 * The policies of a request: its tier's, with the caller's overrides in their place.
	 */
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
		String subject = Subject.banKey(identity);
		try {
			this.store.recordRefusal(subject, rule).whenComplete((ban, failure) -> {
				if (failure != null) {
					refusalNotCounted(subject, failure);
				}
				else if (ban != null) {
					banned(ban, rule);
				}
			});
		}
		catch (RuntimeException ex) {
			refusalNotCounted(subject, ex);
		}
	}

	private void banned(Ban ban, BanRule rule) {
		this.bansStarted.incrementAndGet();
		long now = this.clock.millis();
		this.banLog.started(ban, rule, now);
		this.bans.put(ban, now);
	}

	private void refusalNotCounted(String subject, Throwable failure) {
		Throwable cause = (failure instanceof CompletionException && failure.getCause() != null) ? failure.getCause()
				: failure;
		if (cause instanceof TooManyBansException full) {
			this.bansNotStarted.incrementAndGet();
			this.banLog.notStarted(subject, full.maxActive(), this.clock.millis());
			return;
		}
		// a store that refuses writes (Redis at maxmemory) starts no ban; bans in force
		// stay
		long now = this.clock.millis();
		long next = this.nextRefusalFailureLog.get();
		if (now >= next && this.nextRefusalFailureLog.compareAndSet(next, now + REFUSAL_FAILURE_LOG_MILLIS)) {
			logger.warn("Could not count refusals towards bans, so no new ban starts until the store takes writes "
					+ "again (bans in force stay): {}", cause.toString());
		}
		else {
			logger.debug("Could not count a refusal towards a ban: {}", cause.toString());
		}
	}

	/** How many bans this instance started since it started. */
	public long bansStarted() {
		return this.bansStarted.get();
	}

	/**
	 * How many refusals of this instance would have started a ban but did not: max-active
	 * were in force.
	 */
	public long bansNotStarted() {
		return this.bansNotStarted.get();
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

	/** The bans in force (at most the store's {@link ControlStore#maxActiveBans()}). */
	public List<Ban> bans() {
		return this.bans.list(this.clock.millis());
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
		refreshQuietly();
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
		refreshQuietly();
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
		refreshQuietly();
	}

	/** Deletes the runtime rule of a subject; answers whether there was one. */
	public boolean deleteRule(Subject subject) {
		boolean deleted = this.store.deleteRule(subject);
		refreshQuietly();
		return deleted;
	}

	/**
	 * Lifts a ban at once on this instance (on the others within the refresh interval).
	 */
	public boolean liftBan(Subject subject) {
		String key = subject.banKey();
		boolean lifted = this.store.liftBan(key);
		lifted |= this.bans.remove(key, this.clock.millis());
		refreshQuietly();
		return lifted;
	}

	// ---- refresh

	/** Loads the state from the store now, and the ban changes since the last read. */
	public void refresh() {
		long version = this.store.version();
		ControlState state = this.store.load();
		install(version, state);
		readBanChanges();
		sweep();
	}

	private void refreshIfChanged() {
		try {
			if (this.store.version() != this.snapshot.version) {
				long version = this.store.version();
				install(version, this.store.load());
			}
			this.failedRefreshes.set(0);
		}
		catch (RuntimeException ex) {
			// the last state stays in force; say so once, not every interval
			if (this.failedRefreshes.getAndIncrement() == 0) {
				logger.warn("Could not read the rate-limit runtime control state (overrides, rules); the "
						+ "last one read stays in force until the store answers: {}", ex.toString());
			}
		}
		try {
			readBanChanges();
			this.failedBanReads.set(0);
		}
		catch (RuntimeException ex) {
			if (this.refresher != null && this.failedBanReads.getAndIncrement() == 0) {
				logger.warn("Could not read the rate-limit ban changes; the bans held stay in force until the store "
						+ "answers: {}", ex.toString());
			}
		}
		sweep();
	}

	private void sweep() {
		long now = this.clock.millis();
		this.bans.sweep(now);
		this.banLog.flush(now);
	}

	/**
	 * Applies the bans started and lifted since the last read: a bounded batch, not every
	 * ban.
	 */
	private void readBanChanges() {
		synchronized (this.banReads) {
			for (int i = 0; i < MAX_BAN_BATCHES_PER_REFRESH; i++) {
				String cursor = this.banCursor;
				BanChanges changes = this.store.banChanges(cursor);
				long now = this.clock.millis();
				if (changes.resync()) {
					int dropped = this.bans.replaceWith(changes.changes()
						.stream()
						.map(BanChanges.Change::started)
						.filter((ban) -> ban != null)
						.toList(), now);
					if (dropped > 0) {
						logger.warn("{} bans in force did not fit in this instance's {} (ratelimit.bans.max-active)",
								dropped, this.store.maxActiveBans());
					}
				}
				else {
					for (BanChanges.Change change : changes.changes()) {
						Ban started = change.started();
						if (started != null) {
							this.bans.put(started, now);
						}
						else {
							this.bans.remove(change.subject(), now);
						}
					}
				}
				this.banCursor = changes.cursor();
				if (changes.resync() || changes.changes().isEmpty() || changes.cursor().equals(cursor)) {
					return;
				}
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
		for (AccessRule rule : state.rules()) {
			if (applicable(rule)) {
				rules.add(rule);
			}
		}
		this.snapshot = new Snapshot(version, table, compile(state.overrides(), table), new AccessRules(rules),
				state.overrides());
	}

	// a stored rule the request path could not match (written by hand, or by an older
	// version) is skipped,
	// so that it never keeps the other rules, or later changes, from applying
	private boolean applicable(AccessRule rule) {
		try {
			Subject subject = rule.subject();
			if (subject.kind() == Subject.Kind.IP && subject.range() == null) {
				throw new IllegalStateException("an ip subject without a range");
			}
			rule.expired(this.clock.millis());
			return true;
		}
		catch (RuntimeException ex) {
			skipped("access rule", rule, ex);
			return false;
		}
	}

	private Snapshot recompile(Snapshot current, PolicyTable table) {
		synchronized (this) {
			Snapshot fresh = new Snapshot(current.version, table, compile(current.overrideList, table), current.access,
					current.overrideList);
			this.snapshot = fresh;
			return fresh;
		}
	}

	private Overrides compile(List<LimitOverride> overrides, PolicyTable table) {
		return Overrides.compile(overrides, table, (override, ex) -> skipped("override", override, ex));
	}

	// said once per record, not on every refresh; the set is bounded, so a store full of
	// bad records
	// costs a few lines again after a while, never the heap
	private void skipped(String what, Object record, RuntimeException ex) {
		if (this.reportedSkips.size() >= MAX_REPORTED_SKIPS) {
			this.reportedSkips.clear();
		}
		if (this.reportedSkips.add(what + " " + record)) {
			logger.warn("Skipping the rate-limit {} {}: it cannot apply ({}); the others do. Delete it through the "
					+ "ratelimits endpoint", what, record, ex.toString());
		}
	}

	private record Snapshot(long version, PolicyTable table, Overrides overrides, AccessRules access,
			List<LimitOverride> overrideList) {
	}

}
