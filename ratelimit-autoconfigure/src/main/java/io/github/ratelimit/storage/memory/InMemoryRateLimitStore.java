package io.github.ratelimit.storage.memory;

import java.util.List;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.TimeMeter;
import io.github.bucket4j.local.LocalBucketBuilder;
import io.github.bucket4j.VerboseResult;

import io.github.ratelimit.storage.bucket4j.BucketConfigurations;
import io.github.ratelimit.storage.bucket4j.BucketResults;
import io.github.ratelimit.storage.CheckResult;
import io.github.ratelimit.storage.LimitCheck;
import io.github.ratelimit.storage.RateLimitStore;
import io.github.ratelimit.storage.StoreDecision;

/**
 * Buckets in this JVM: Bucket4j lock-free local buckets in a Caffeine map bounded by
 * {@code ratelimit.storage.memory.max-keys}, so a flood of new addresses cannot exhaust the heap. An
 * idle bucket is dropped once it would be full again; a bucket evicted early by the size bound comes
 * back full (documented trade-off).
 * <p>
 * Several checks are decided by taking tokens bucket by bucket and giving them back when an enforced
 * bucket refused: a rejected request drains nothing. Between the take and the give-back a concurrent
 * request may see the lower count and be rejected; that errs on the safe side.
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

	private final BucketConfigurations configurations = new BucketConfigurations();

	private final TimeMeter timeMeter;

	private final long maxKeys;

	/**
	 * Creates a store.
	 * @param maxKeys the most buckets kept
	 * @param timeMeter the clock of the buckets ({@link TimeMeter#SYSTEM_NANOTIME} outside tests)
	 */
	public InMemoryRateLimitStore(long maxKeys, TimeMeter timeMeter) {
		this.timeMeter = timeMeter;
		this.maxKeys = maxKeys;
		this.buckets = Caffeine.newBuilder().maximumSize(maxKeys).expireAfter(new IdleExpiry()).build();
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
		int size = checks.size();
		Bucket[] buckets = new Bucket[size];
		VerboseResult<Boolean>[] attempts = newAttempts(size);
		boolean admitted = true;
		for (int i = 0; i < size; i++) {
			LimitCheck check = checks.get(i);
			buckets[i] = bucket(check);
			attempts[i] = buckets[i].asVerbose().tryConsume(check.cost());
			if (check.enforced() && !attempts[i].getValue()) {
				admitted = false;
			}
		}
		CheckResult[] results = new CheckResult[size];
		for (int i = 0; i < size; i++) {
			LimitCheck check = checks.get(i);
			boolean consumed = attempts[i].getValue();
			long givenBack = 0;
			if (consumed && !admitted) {
				// a refused request takes nothing: give back what was taken before a later bucket refused
				buckets[i].addTokens(check.cost());
				givenBack = check.cost();
			}
			results[i] = BucketResults.of(check, consumed, attempts[i].getState(), givenBack);
		}
		return new StoreDecision(admitted, List.of(results));
	}

	@SuppressWarnings("unchecked")
	private static VerboseResult<Boolean>[] newAttempts(int size) {
		return new VerboseResult[size];
	}

	private Bucket bucket(LimitCheck check) {
		Entry entry = this.buckets.getIfPresent(check.key());
		if (entry == null) {
			entry = this.buckets.get(check.key(), (key) -> newEntry(check));
		}
		return entry.bucket();
	}

	private Entry newEntry(LimitCheck check) {
		LocalBucketBuilder builder = Bucket.builder().withCustomTimePrecision(this.timeMeter);
		for (io.github.bucket4j.Bandwidth bandwidth : this.configurations.of(check.policy()).getBandwidths()) {
			builder.addLimit(bandwidth);
		}
		return new Entry(builder.build(), this.configurations.idleNanos(check.policy()));
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

	private record Entry(Bucket bucket, long idleNanos) {
	}

	private static final class IdleExpiry implements Expiry<String, Entry> {

		@Override
		public long expireAfterCreate(String key, Entry entry, long currentTime) {
			return entry.idleNanos();
		}

		@Override
		public long expireAfterUpdate(String key, Entry entry, long currentTime, long currentDuration) {
			return entry.idleNanos();
		}

		@Override
		public long expireAfterRead(String key, Entry entry, long currentTime, long currentDuration) {
			return entry.idleNanos();
		}

	}

}
