package io.github.ratelimit.storage.memory;

import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import io.github.bucket4j.TimeMeter;

import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.storage.CheckResult;
import io.github.ratelimit.storage.LimitCheck;
import io.github.ratelimit.storage.Permits;
import io.github.ratelimit.storage.RateLimitStore;
import io.github.ratelimit.storage.StoreDecision;

/**
 * Buckets in this JVM: Bucket4j lock-free local buckets in a Caffeine map bounded by
 * {@code ratelimit.storage.memory.max-keys}, so a flood of new addresses cannot exhaust the heap. An
 * idle bucket is dropped once it would be full again; a bucket evicted early by the size bound comes
 * back full (documented trade-off).
 * <p>
 * Calendar quotas count per period of the store's wall clock, and an entry with a count lives until its
 * period ends. Concurrency permits are counted in their entry; an entry that holds permits never expires
 * and the size bound passes it over, so the map may exceed its bound by the keys with requests in flight.
 * <p>
 * Several checks are decided by taking tokens bucket by bucket and giving them back when an enforced
 * bucket refused: a rejected request drains nothing. Between the take and the give-back a concurrent
 * request may see the lower count and be rejected; that errs on the safe side. A request that may wait
 * reserves its tokens at once (the bucket goes into debt) and is told how long to wait.
 */
public final class InMemoryRateLimitStore implements RateLimitStore {

	/**
	 * What one bucket costs the heap at most, key and map entry included, for limits of up to two
	 * bandwidths (measured by {@code InMemoryFootprintTests}).
	 */
	public static final long BYTES_PER_KEY = 600;

	/** The most buckets a default bound allows, however large the heap. */
	public static final long MAX_DEFAULT_KEYS = 1_000_000;

	private final Cache<String, Entry> buckets;

	private final Map<Policy, LimitLayout> layouts = new ConcurrentHashMap<>();

	private final TimeMeter timeMeter;

	private final Clock clock;

	private final long maxKeys;

	/**
	 * Creates a store whose quotas follow the system clock.
	 * @param maxKeys the most buckets kept
	 * @param timeMeter the clock of the buckets ({@link TimeMeter#SYSTEM_NANOTIME} outside tests)
	 */
	public InMemoryRateLimitStore(long maxKeys, TimeMeter timeMeter) {
		this(maxKeys, timeMeter, Clock.systemUTC());
	}

	/**
	 * Creates a store.
	 * @param maxKeys the most buckets kept
	 * @param timeMeter the clock of the token buckets and of idle expiry ({@link TimeMeter#SYSTEM_NANOTIME}
	 * outside tests)
	 * @param clock the wall clock that picks the calendar period of quotas ({@link Clock#systemUTC()}
	 * outside tests; its zone does not matter, each quota has its own)
	 */
	public InMemoryRateLimitStore(long maxKeys, TimeMeter timeMeter, Clock clock) {
		this.timeMeter = timeMeter;
		this.clock = clock;
		this.maxKeys = maxKeys;
		this.buckets = Caffeine.newBuilder()
			.ticker(timeMeter::currentTimeNanos)
			.maximumWeight(maxKeys)
			.weigher((String key, Entry entry) -> entry.pinned() ? 0 : 1)
			.expireAfter(new IdleExpiry(clock))
			.build();
	}

	/**
	 * The default bound for a heap: as many buckets as fit in a fifth of it, at most
	 * {@value #MAX_DEFAULT_KEYS}. A 512 MB heap holds about 178,000 buckets.
	 * @param maxHeapBytes the heap's limit, as {@link Runtime#maxMemory()}
	 * @return the number of buckets
	 */
	public static long defaultMaxKeys(long maxHeapBytes) {
		return Math.max(1, Math.min(MAX_DEFAULT_KEYS, maxHeapBytes / 5 / BYTES_PER_KEY));
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
				// a refused request takes nothing: give back what was taken before a later check refused
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
		if (!layout.counts()) {
			Entry entry = this.buckets.getIfPresent(check.key());
			if (entry == null) {
				entry = this.buckets.get(check.key(), (key) -> newEntry(layout));
			}
			adopt(entry, layout);
			Attempt attempt = new Attempt(check, entry);
			entry.take(attempt, nowMillis);
			if (attempt.waitNanos > 0) {
				// the bucket went into debt: it is full later than an idle bucket would be
				refresh(check.key());
			}
			return attempt;
		}
		// taken inside compute, so Caffeine reads the expiry and the pin as the take left them
		Attempt[] attempt = new Attempt[1];
		this.buckets.asMap().compute(check.key(), (key, found) -> {
			Entry entry = (found instanceof CountingEntry) ? found : newEntry(layout);
			adopt(entry, layout);
			attempt[0] = new Attempt(check, entry);
			entry.take(attempt[0], nowMillis);
			return entry;
		});
		return attempt[0];
	}

	// a key's limit changed to one of the same shape (see Policy#storeKey): keep the state, take the limit
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
			refresh(attempt.key);
		}
	}

	/** Gives a permit back to the entry it was taken from. */
	void release(CountingEntry entry, String key) {
		if (entry.release()) {
			refresh(key);
		}
	}

	/** Has Caffeine read the entry's weight and expiry again from its state (no permit held, a debt). */
	private void refresh(String key) {
		this.buckets.asMap().computeIfPresent(key, (k, entry) -> entry);
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
	public List<CheckResult> inspect(List<LimitCheck> checks) {
		long nowMillis = this.clock.millis();
		CheckResult[] results = new CheckResult[checks.size()];
		for (int i = 0; i < results.length; i++) {
			LimitCheck check = checks.get(i);
			LimitLayout layout = layout(check.policy());
			Entry entry = this.buckets.getIfPresent(check.key());
			if (entry == null || !entry.layout.sameLimit(layout)) {
				// not there (or shaped by an older limit it has not met yet): what the next request would find
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
			this.buckets.invalidate(check.key());
		}
	}

	/** Forgets a key, as the size bound does (tests). */
	void evict(String key) {
		this.buckets.invalidate(key);
	}

	/** The most buckets kept. */
	public long maxKeys() {
		return this.maxKeys;
	}

	/** The number of buckets held (approximate, as Caffeine's estimate). */
	public long size() {
		return this.buckets.estimatedSize();
	}

	/** Runs pending evictions now (tests and the Actuator endpoint want an exact size). */
	public void cleanUp() {
		this.buckets.cleanUp();
	}

	private static final class IdleExpiry implements Expiry<String, Entry> {

		private final Clock clock;

		IdleExpiry(Clock clock) {
			this.clock = clock;
		}

		@Override
		public long expireAfterCreate(String key, Entry entry, long currentTime) {
			return entry.idleNanosAfterCreate(this.clock);
		}

		@Override
		public long expireAfterUpdate(String key, Entry entry, long currentTime, long currentDuration) {
			return entry.idleNanosAfterUpdate(this.clock);
		}

		@Override
		public long expireAfterRead(String key, Entry entry, long currentTime, long currentDuration) {
			return entry.idleNanosAfterRead(this.clock, currentDuration);
		}

	}

}
