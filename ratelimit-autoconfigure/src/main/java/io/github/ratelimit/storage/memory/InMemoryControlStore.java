package io.github.ratelimit.storage.memory;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import org.jspecify.annotations.Nullable;

import io.github.ratelimit.control.AccessRule;
import io.github.ratelimit.control.Ban;
import io.github.ratelimit.control.BanChanges;
import io.github.ratelimit.control.BanRule;
import io.github.ratelimit.control.ControlState;
import io.github.ratelimit.control.ControlStore;
import io.github.ratelimit.control.LimitOverride;
import io.github.ratelimit.control.Subject;
import io.github.ratelimit.control.TooManyBansException;
import io.github.ratelimit.policy.Dimension;

/**
 * Runtime control of one instance. Refusal counts and ban histories are bounded by
 * {@code maxSubjects} (the least recently seen are forgotten first), bans in force by
 * {@code maxActiveBans}, so a flood from rotating addresses cannot exhaust the heap. Ban
 * changes are kept in a ring of the last {@value #LOG_LENGTH}, written and read without a
 * lock.
 */
public final class InMemoryControlStore implements ControlStore {

	/** How many subjects' refusal counts and ban histories are kept by default. */
	public static final long DEFAULT_MAX_SUBJECTS = 100_000;

	/** Ban changes remembered for readers that are behind; one further behind resyncs. */
	static final int LOG_LENGTH = 10_000;

	/** Ban changes handed out in one read. */
	private static final int BATCH = 1000;

	/** A full set of bans is swept for ended ones once in this interval at most. */
	private static final long SWEEP_INTERVAL_MILLIS = 1000;

	private final Clock clock;

	private final int maxActiveBans;

	private final AtomicLong version = new AtomicLong();

	private final Map<String, LimitOverride> overrides = new ConcurrentHashMap<>();

	private final Map<String, AccessRule> rules = new ConcurrentHashMap<>();

	private final Cache<String, Counter> refusals;

	private final Cache<String, History> bans;

	private final Map<String, Ban> active = new ConcurrentHashMap<>();

	private final AtomicLong nextSweep = new AtomicLong(Long.MIN_VALUE);

	private final AtomicLong logNext = new AtomicLong();

	private final AtomicReferenceArray<@Nullable Entry> log = new AtomicReferenceArray<>(LOG_LENGTH);

	public InMemoryControlStore(Clock clock) {
		this(clock, DEFAULT_MAX_SUBJECTS);
	}

	public InMemoryControlStore(Clock clock, long maxSubjects) {
		this(clock, maxSubjects, DEFAULT_MAX_ACTIVE_BANS);
	}

	/**
	 * Creates a store.
	 * @param clock the clock of expiries
	 * @param maxSubjects how many subjects' refusal counts and ban histories are kept
	 * @param maxActiveBans the most bans in force at once
	 */
	public InMemoryControlStore(Clock clock, long maxSubjects, int maxActiveBans) {
		if (maxActiveBans < 1) {
			throw new IllegalArgumentException("maxActiveBans must be at least 1");
		}
		this.clock = clock;
		this.maxActiveBans = maxActiveBans;
		this.refusals = Caffeine.newBuilder().maximumSize(maxSubjects).build();
		this.bans = Caffeine.newBuilder().maximumSize(maxSubjects).build();
	}

	@Override
	public long version() {
		return this.version.get();
	}

	@Override
	public ControlState load() {
		long now = this.clock.millis();
		this.overrides.values().removeIf((override) -> override.expired(now));
		this.rules.values().removeIf((rule) -> rule.expired(now));
		return new ControlState(List.copyOf(this.overrides.values()), List.copyOf(this.rules.values()));
	}

	@Override
	public int maxActiveBans() {
		return this.maxActiveBans;
	}

	@Override
	public BanChanges banChanges(@Nullable String cursor) {
		long from = (cursor != null) ? parse(cursor) : -1;
		long next = this.logNext.get();
		if (from < 0 || from > next || next - from > LOG_LENGTH) {
			return resync();
		}
		List<BanChanges.Change> changes = new ArrayList<>();
		long seq = from;
		for (; seq < next && changes.size() < BATCH; seq++) {
			Entry entry = this.log.get((int) (seq % LOG_LENGTH));
			if (entry == null || entry.seq < seq) {
				// claimed but not written yet: the next read takes it
				break;
			}
			if (entry.seq > seq) {
				return resync();
			}
			changes.add(entry.change);
		}
		return new BanChanges(Long.toString(seq), false, changes);
	}

	private BanChanges resync() {
		// the cursor first: a change made while the bans are copied is read again, which
		// changes nothing
		long next = this.logNext.get();
		long now = this.clock.millis();
		List<BanChanges.Change> changes = new ArrayList<>();
		for (Ban ban : this.active.values()) {
			if (ban.active(now)) {
				changes.add(BanChanges.Change.started(ban));
			}
		}
		return new BanChanges(Long.toString(next), true, changes);
	}

	private static long parse(String cursor) {
		try {
			return Long.parseLong(cursor);
		}
		catch (NumberFormatException ex) {
			return -1;
		}
	}

	private void append(BanChanges.Change change) {
		long seq = this.logNext.getAndIncrement();
		this.log.set((int) (seq % LOG_LENGTH), new Entry(seq, change));
	}

	@Override
	public void putOverride(LimitOverride override) {
		this.overrides.put(override.dimension().key() + '\n' + override.group() + '\n' + override.id(), override);
		this.version.incrementAndGet();
	}

	@Override
	public boolean deleteOverride(Dimension dimension, String id, String group) {
		boolean deleted = this.overrides.remove(dimension.key() + '\n' + group + '\n' + id) != null;
		this.version.incrementAndGet();
		return deleted;
	}

	@Override
	public void putRule(AccessRule rule) {
		this.rules.put(rule.subject().toString(), rule);
		this.version.incrementAndGet();
	}

	@Override
	public boolean deleteRule(Subject subject) {
		boolean deleted = this.rules.remove(subject.toString()) != null;
		this.version.incrementAndGet();
		return deleted;
	}

	@Override
	public CompletableFuture<@Nullable Ban> recordRefusal(String subject, BanRule rule) {
		long now = this.clock.millis();
		Ban[] started = new Ban[1];
		boolean[] full = new boolean[1];
		this.bans.asMap().compute(subject, (key, history) -> {
			Ban current = this.active.get(subject);
			if ((history != null && history.ban.active(now)) || (current != null && current.active(now))) {
				return history;
			}
			Counter counter = this.refusals.get(subject, (k) -> new Counter());
			if (!counter.count(now, rule)) {
				return history;
			}
			if (!roomForABan(now)) {
				full[0] = true;
				return history;
			}
			this.refusals.invalidate(subject);
			int offence = (history != null && history.forgetAt > now) ? history.ban.offence() + 1 : 1;
			long until = now + rule.durationMillis(offence);
			started[0] = new Ban(subject, Instant.ofEpochMilli(until), offence);
			this.active.put(subject, started[0]);
			return new History(started[0], until + rule.memory().toMillis());
		});
		if (full[0]) {
			return CompletableFuture.failedFuture(new TooManyBansException(this.maxActiveBans));
		}
		if (started[0] != null) {
			append(BanChanges.Change.started(started[0]));
		}
		return CompletableFuture.completedFuture(started[0]);
	}

	private boolean roomForABan(long now) {
		if (this.active.size() < this.maxActiveBans) {
			return true;
		}
		long next = this.nextSweep.get();
		if (now >= next && this.nextSweep.compareAndSet(next, now + SWEEP_INTERVAL_MILLIS)) {
			this.active.values().removeIf((ban) -> !ban.active(now));
		}
		return this.active.size() < this.maxActiveBans;
	}

	@Override
	public boolean liftBan(String subject) {
		long now = this.clock.millis();
		boolean[] active = new boolean[1];
		// ended now; the offence is remembered as long as it would have been, so a repeat
		// still doubles
		this.bans.asMap().computeIfPresent(subject, (key, history) -> {
			active[0] = history.ban.active(now);
			return (active[0])
					? new History(new Ban(subject, Instant.ofEpochMilli(now), history.ban.offence()), history.forgetAt)
					: history;
		});
		Ban removed = this.active.remove(subject);
		active[0] |= removed != null && removed.active(now);
		this.refusals.invalidate(subject);
		append(BanChanges.Change.lifted(subject));
		return active[0];
	}

	/** Refusals of one subject in its current window. */
	private static final class Counter {

		private long windowEnd;

		private int count;

		/** Counts a refusal; answers whether the count reached the rule's. */
		synchronized boolean count(long now, BanRule rule) {
			if (now >= this.windowEnd) {
				this.windowEnd = now + rule.window().toMillis();
				this.count = 0;
			}
			return ++this.count >= rule.refusals();
		}

	}

	private record History(Ban ban, long forgetAt) {
	}

	private record Entry(long seq, BanChanges.Change change) {
	}

}
