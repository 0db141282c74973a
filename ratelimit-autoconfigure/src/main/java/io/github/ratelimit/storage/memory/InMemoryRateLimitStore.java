package io.github.ratelimit.storage.memory;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import com.github.benmanes.caffeine.cache.Cache;
import io.github.bucket4j.TimeMeter;

import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.storage.CheckResult;
import io.github.ratelimit.storage.LimitCheck;
import io.github.ratelimit.storage.Permits;
import io.github.ratelimit.storage.RateLimitStore;
import io.github.ratelimit.storage.StoreDecision;

/**
 * Buckets in this JVM: Bucket4j local buckets, each changed in place under its entry's
 * monitor ({@code LimitLayout#newBucket}), in two Caffeine maps, each bounded on its own
 * so a flood of new identities cannot exhaust the heap, nor evict what another kind of
 * caller has spent:
 * <ul>
 * <li>the <em>address</em> partition ({@link Dimension#IP}, whatever the tier: anonymous
 * callers' limits and the per-address backstop), bounded by
 * {@code ratelimit.storage.memory.max-keys}. Anyone can make new addresses (an IPv6 /48
 * holds 65,536 /64s), so a flood evicts only buckets of this kind;</li>
 * <li>the <em>identified</em> partition (users, orgs and tokens: their rate buckets,
 * calendar quotas and concurrency permits), bounded by
 * {@code ratelimit.storage.memory.max-identified-keys}. Its keys come from verified
 * credentials only, so only the application's own callers compete for it.</li>
 * </ul>
 * An idle bucket is dropped once it would be full again (up to two seconds later: the map
 * records a plain bucket's reads at most once a second, see
 * {@code BucketPartitions#read}); a bucket evicted early by a size bound comes back full
 * (documented trade-off), a quota with its whole period's budget: the identified bound
 * logs a warning when it evicts, since that should not happen to a bound sized for the
 * application's callers.
 * <p>
 * Calendar quotas and fixed windows count per window of the store's wall clock, and an
 * entry with a count lives until its window ends. Sliding windows and leaky buckets
 * follow the arithmetic every store shares ({@code SlidingWindow.Counts},
 * {@code LeakyBucket.Backlog}) on the same clock; an entry lives until its counts have
 * slid out of the window and its backlog has drained. Concurrency permits are counted in
 * their entry; an entry that holds permits never expires and the size bound passes it
 * over, so a map may exceed its bound by the keys with requests in flight.
 * <p>
 * Several checks are decided by taking tokens bucket by bucket and giving them back when
 * an enforced bucket refused: a rejected request drains nothing. Between the take and the
 * give-back a concurrent request may see the lower count and be rejected; that errs on
 * the safe side. A request that may wait reserves its tokens at once (the bucket goes
 * into debt) and is told how long to wait; so does one that may wait for a leaky bucket's
 * slot (it queues its slots at once).
 */
public final class InMemoryRateLimitStore implements RateLimitStore {

	/**
	 * What one bucket costs the heap at most, key and map entry included, for limits of
	 * up to two bandwidths, a quota besides them included, or of a sliding window, a
	 * fixed window and a leaky bucket (measured by {@code InMemoryFootprintTests}).
	 */
	public static final long BYTES_PER_KEY = 600;

	/** The most buckets the two default bounds allow together, however large the heap. */
	public static final long MAX_DEFAULT_KEYS = 1_000_000;

	private final BucketPartitions partitions;

	private final Map<Policy, LimitLayout> layouts = new ConcurrentHashMap<>();

	private final TimeMeter timeMeter;

	private final Clock clock;

	private final long maxKeys;

	private final long maxIdentifiedKeys;

	/**
	 * Creates a store whose quotas follow the system clock, with one bound for each
	 * partition.
	 * @param maxKeys the most buckets kept in each partition
	 * @param timeMeter the clock of the buckets ({@link TimeMeter#SYSTEM_NANOTIME}
	 * outside tests)
	 */
	public InMemoryRateLimitStore(long maxKeys, TimeMeter timeMeter) {
		this(maxKeys, maxKeys, timeMeter, Clock.systemUTC());
	}

	/**
	 * Creates a store with one bound for each partition.
	 * @param maxKeys the most buckets kept in each partition
	 * @param timeMeter the clock of the token buckets and of idle expiry
	 * ({@link TimeMeter#SYSTEM_NANOTIME} outside tests)
	 * @param clock the wall clock that picks the calendar period of quotas
	 * ({@link Clock#systemUTC()} outside tests; its zone does not matter, each quota has
	 * its own)
	 */
	public InMemoryRateLimitStore(long maxKeys, TimeMeter timeMeter, Clock clock) {
		this(maxKeys, maxKeys, timeMeter, clock);
	}

	/**
	 * Creates a store.
	 * @param maxKeys the most buckets kept for client addresses ({@link Dimension#IP})
	 * @param maxIdentifiedKeys the most buckets kept for users, orgs and tokens
	 * @param timeMeter the clock of the token buckets and of idle expiry
	 * ({@link TimeMeter#SYSTEM_NANOTIME} outside tests)
	 * @param clock the wall clock that picks the calendar period of quotas
	 * ({@link Clock#systemUTC()} outside tests; its zone does not matter, each quota has
	 * its own)
	 */
	public InMemoryRateLimitStore(long maxKeys, long maxIdentifiedKeys, TimeMeter timeMeter, Clock clock) {
		this.timeMeter = timeMeter;
		this.clock = clock;
		this.maxKeys = maxKeys;
		this.maxIdentifiedKeys = maxIdentifiedKeys;
		this.partitions = new BucketPartitions(maxKeys, maxIdentifiedKeys, timeMeter, clock);
	}

	/**
	 * The default bound of the address partition for a heap: three quarters of the
	 * buckets that fit in a fifth of it, at most three quarters of
	 * {@value #MAX_DEFAULT_KEYS}. A 512 MB heap holds about 134,000: a whole IPv6 /48 of
	 * rotating /64s, two buckets each.
	 * @param maxHeapBytes the heap's limit, as {@link Runtime#maxMemory()}
	 * @return the number of buckets
	 */
	public static long defaultMaxKeys(long maxHeapBytes) {
		return Math.max(1, defaultKeys(maxHeapBytes) * 3 / 4);
	}

	/**
	 * The default bound of the identified partition for a heap: the rest of the buckets
	 * that fit in a fifth of it, at most a quarter of {@value #MAX_DEFAULT_KEYS}. A 512
	 * MB heap holds about 44,700.
	 * @param maxHeapBytes the heap's limit, as {@link Runtime#maxMemory()}
	 * @return the number of buckets
	 */
	public static long defaultMaxIdentifiedKeys(long maxHeapBytes) {
		long keys = defaultKeys(maxHeapBytes);
		return Math.max(1, keys - keys * 3 / 4);
	}

	private static long defaultKeys(long maxHeapBytes) {
		return Math.min(MAX_DEFAULT_KEYS, maxHeapBytes / 5 / BYTES_PER_KEY);
	}

	@Override
	public StoreDecision decide(List<LimitCheck> checks) {
		// one time for the whole request: every quota counts it in the same period
		long nowMillis = this.clock.millis();
		int size = checks.size();
		Attempt[] attempts = new Attempt[size];
		boolean admitted = true;
		for (int i = 0; i < size; i++) {
			LimitCheck check = checks.get(i);
			attempts[i] = attempt(check, nowMillis);
			if (check.enforced() && !attempts[i].took) {
				admitted = false;
			}
		}
		CheckResult[] results = new CheckResult[size];
		long waitNanos = 0;
		boolean holdsPermits = false;
		for (int i = 0; i < size; i++) {
			Attempt attempt = attempts[i];
			if (attempt.took && !admitted) {
				// a refused request takes nothing: give back what was taken before a
				// later check refused
				giveBack(attempt);
			}
			waitNanos = Math.max(waitNanos, attempt.waitNanos);
			holdsPermits |= attempt.holdsPermit();
			results[i] = Reports.of(attempt, nowMillis);
		}
		return new StoreDecision(admitted, List.of(results), (waitNanos + 999_999) / 1_000_000,
				holdsPermits ? new HeldPermits(this, attempts) : Permits.NONE);
	}

	private Attempt attempt(LimitCheck check, long nowMillis) {
		LimitLayout layout = layout(check.policy());
		Cache<String, Entry> buckets = this.partitions.of(check.policy());
		if (!layout.counts()) {
			Entry entry = this.partitions.read(check.policy(), check.key());
			if (entry == null) {
				entry = buckets.get(check.key(), (key) -> newEntry(layout));
			}
			adopt(entry, layout);
			Attempt attempt = new Attempt(check, entry);
			entry.take(attempt, nowMillis);
			if (attempt.waitNanos > 0) {
				// the bucket went into debt: it is full later than an idle bucket would
				// be
				refresh(check);
			}
			return attempt;
		}
		// taken inside compute, so Caffeine reads the expiry and the pin as the take left
		// them
		Attempt[] attempt = new Attempt[1];
		buckets.asMap().compute(check.key(), (key, found) -> {
			Entry entry = (found instanceof CountingEntry) ? found : newEntry(layout);
			adopt(entry, layout);
			attempt[0] = new Attempt(check, entry);
			entry.take(attempt[0], nowMillis);
			return entry;
		});
		return attempt[0];
	}

	// a key's limit changed to one of the same shape (see StoreKeys): keep the
	// state, take the limit
	private static void adopt(Entry entry, LimitLayout layout) {
		LimitLayout current = entry.layout;
		if (current != layout && !current.sameLimit(layout)) {
			entry.adopt(layout);
		}
	}

	private void giveBack(Attempt attempt) {
		boolean permit = attempt.holdsPermit();
		attempt.entry.giveBack(attempt);
		if (permit && !attempt.entry.pinned()) {
			refresh(attempt.check);
		}
	}

	@Override
	public void giveBack(List<LimitCheck> checks) {
		long nowMillis = this.clock.millis();
		for (LimitCheck check : checks) {
			// inside compute, so Caffeine reads the expiry as the refund left it; an
			// evicted bucket is full already
			this.partitions.of(check.policy()).asMap().computeIfPresent(check.key(), (key, entry) -> {
				entry.refund(check.cost(), nowMillis);
				return entry;
			});
		}
	}

	/** Gives a permit back to the entry it was taken from. */
	void release(CountingEntry entry, LimitCheck check) {
		if (entry.release()) {
			refresh(check);
		}
	}

	/**
	 * Has Caffeine read the entry's weight and expiry again from its state (no permit
	 * held, a debt).
	 */
	private void refresh(LimitCheck check) {
		this.partitions.of(check.policy()).asMap().computeIfPresent(check.key(), (k, entry) -> entry);
	}

	private LimitLayout layout(Policy policy) {
		LimitLayout layout = this.layouts.get(policy);
		return (layout != null) ? layout : this.layouts.computeIfAbsent(policy, LimitLayout::new);
	}

	private Entry newEntry(LimitLayout layout) {
		return layout.counts() ? new CountingEntry(layout.newBucket(this.timeMeter), layout)
				: new Entry(layout.newBucket(this.timeMeter), layout);
	}

	@Override
	public boolean canInspect() {
		return true;
	}

	@Override
	public List<CheckResult> inspect(List<LimitCheck> checks) {
		long nowMillis = this.clock.millis();
		CheckResult[] results = new CheckResult[checks.size()];
		for (int i = 0; i < results.length; i++) {
			LimitCheck check = checks.get(i);
			LimitLayout layout = layout(check.policy());
			Entry entry = this.partitions.of(check.policy()).getIfPresent(check.key());
			if (entry == null || !entry.layout.sameLimit(layout)) {
				// not there (or shaped by an older limit it has not met yet): what the
				// next request would find
				Entry fresh = newEntry(layout);
				if (entry != null) {
					entry.copyTo(fresh);
				}
				entry = fresh;
			}
			Attempt attempt = new Attempt(check, entry);
			entry.peek(attempt, nowMillis);
			results[i] = Reports.of(attempt, nowMillis);
		}
		return List.of(results);
	}

	@Override
	public void reset(List<LimitCheck> checks) {
		for (LimitCheck check : checks) {
			this.partitions.of(check.policy()).invalidate(check.key());
		}
	}

	/** Forgets a key, as a size bound does (tests). */
	void evict(String key) {
		this.partitions.evict(key);
	}

	/** The most buckets kept for client addresses. */
	public long maxKeys() {
		return this.maxKeys;
	}

	/** The most buckets kept for users, orgs and tokens. */
	public long maxIdentifiedKeys() {
		return this.maxIdentifiedKeys;
	}

	/** The number of buckets held (approximate, as Caffeine's estimate). */
	public long size() {
		return this.partitions.addressSize() + this.partitions.identifiedSize();
	}

	/**
	 * The number of buckets held for client addresses (approximate, as Caffeine's
	 * estimate).
	 */
	public long addressSize() {
		return this.partitions.addressSize();
	}

	/**
	 * The number of buckets held for users, orgs and tokens (approximate, as Caffeine's
	 * estimate).
	 */
	public long identifiedSize() {
		return this.partitions.identifiedSize();
	}

	/** How many buckets of users, orgs and tokens the size bound has evicted so far. */
	public long identifiedEvictions() {
		return this.partitions.identifiedEvictions();
	}

	/**
	 * Runs pending evictions now (tests and the Actuator endpoint want an exact size).
	 */
	public void cleanUp() {
		this.partitions.cleanUp();
	}

	@Override
	public String name() {
		return "memory";
	}

}
