package io.github.ratelimit.control;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.ratelimit.policy.PolicyRegistry;
import io.github.ratelimit.policy.PolicyTable;

/**
 * The overrides and access rules in force: one immutable snapshot that the request path
 * reads, replaced whole when the store's version moves, and compiled again when the
 * policy table is replaced. A stored record that cannot apply is skipped (and said once),
 * so that it never keeps the others, or later changes, from applying.
 */
final class OverridesAndRules {

	private static final Logger logger = LoggerFactory.getLogger(RuntimeControl.class);

	/** How many skipped records are remembered as logged. */
	private static final int MAX_REPORTED_SKIPS = 1000;

	private static final VarHandle SNAPSHOT;

	static {
		try {
			SNAPSHOT = MethodHandles.lookup().findVarHandle(OverridesAndRules.class, "snapshot", Snapshot.class);
		}
		catch (ReflectiveOperationException ex) {
			throw new ExceptionInInitializerError(ex);
		}
	}

	private final PolicyRegistry registry;

	private final List<AccessRule> configuredRules;

	private final Clock clock;

	/** The stored records skipped as unusable and already logged. */
	private final Set<String> reportedSkips = ConcurrentHashMap.newKeySet();

	private volatile Snapshot snapshot;

	private volatile long installs;

	OverridesAndRules(PolicyRegistry registry, List<AccessRule> configuredRules, Clock clock) {
		this.registry = registry;
		this.configuredRules = List.copyOf(configuredRules);
		this.clock = clock;
		this.snapshot = new Snapshot(-1, registry.current(), Overrides.NONE, new AccessRules(this.configuredRules),
				List.of());
	}

	/**
	 * The store version the snapshot was loaded at ({@code -1} before the first load).
	 */
	long version() {
		return this.snapshot.version;
	}

	/**
	 * How many times a state was installed: a change means overrides or rules may have.
	 */
	long installs() {
		return this.installs;
	}

	/** The access rules in force, configured ones first. */
	AccessRules access() {
		return this.snapshot.access;
	}

	/** The overrides as stored, expired ones included. */
	List<LimitOverride> overrideList() {
		return this.snapshot.overrideList;
	}

	/**
	 * The overrides compiled against a policy table (the one in force: the snapshot is
	 * compiled again when it was replaced).
	 */
	Overrides overrides(PolicyTable table) {
		Snapshot current = this.snapshot;
		if (current.overrides.isEmpty() || current.table == table) {
			return current.overrides;
		}
		return recompiled(current, table);
	}

	/** The snapshot in force: what a request reads before it asks for the overrides. */
	Snapshot snapshot() {
		return this.snapshot;
	}

	/** Whether a rule comes from configuration (it cannot be deleted at runtime). */
	boolean isConfigured(AccessRule rule) {
		return this.configuredRules.contains(rule);
	}

	/** Replaces the snapshot with what the store held at a version. */
	synchronized void install(long version, ControlState state) {
		PolicyTable table = this.registry.current();
		List<AccessRule> rules = new ArrayList<>(this.configuredRules);
		for (AccessRule rule : state.rules()) {
			if (applicable(rule)) {
				rules.add(rule);
			}
		}
		this.snapshot = new Snapshot(version, table, compile(state.overrides(), table), new AccessRules(rules),
				state.overrides());
		this.installs++;
	}

	// a stored rule the request path could not match (written by hand, or by an older
	// version) is skipped
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

	/**
	 * The overrides of a snapshot a request read, compiled against the table in force
	 * since. Published for the next requests only over that very snapshot and while the
	 * table is still in force, so a state the refresher installed meanwhile is never
	 * overwritten with an older one; and without a lock, since a request thread (an event
	 * loop) runs this.
	 */
	Overrides recompiled(Snapshot seen, PolicyTable table) {
		Snapshot fresh = new Snapshot(seen.version, table, compile(seen.overrideList, table), seen.access,
				seen.overrideList);
		if (table != this.registry.current() || SNAPSHOT.compareAndSet(this, seen, fresh)) {
			return fresh.overrides;
		}
		// installed meanwhile: its overrides, when they were compiled against this table
		Snapshot installed = this.snapshot;
		return (installed.table == table) ? installed.overrides : fresh.overrides;
	}

	private Overrides compile(List<LimitOverride> overrides, PolicyTable table) {
		return Overrides.compile(overrides, table, (override, ex) -> skipped("override", override, ex));
	}

	// said once per record, not on every refresh; the set is bounded, so a store full of
	// bad records costs a few lines again after a while, never the heap
	private void skipped(String what, Object record, RuntimeException ex) {
		if (this.reportedSkips.size() >= MAX_REPORTED_SKIPS) {
			this.reportedSkips.clear();
		}
		if (this.reportedSkips.add(what + " " + record)) {
			logger.warn("Skipping the rate-limit {} {}: it cannot apply ({}); the others do. Delete it through the "
					+ "ratelimits endpoint", what, record, ex.toString());
		}
	}

	record Snapshot(long version, PolicyTable table, Overrides overrides, AccessRules access,
			List<LimitOverride> overrideList) {
	}

}
