package io.github.ratelimit.storage.memory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import io.github.bucket4j.Bucket;
import io.github.bucket4j.BucketState;
import io.github.bucket4j.TimeMeter;
import io.github.bucket4j.local.LocalBucketBuilder;
import io.github.bucket4j.VerboseResult;

import io.github.ratelimit.storage.bucket4j.BucketConfigurations;
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
 * Several checks are decided by taking tokens bucket by bucket and giving them back when a later
 * bucket refuses: a rejected request drains nothing. Between the take and the give-back a concurrent
 * request may see the lower count and be rejected; that errs on the safe side.
 */
public final class InMemoryRateLimitStore implements RateLimitStore {

	private final Cache<String, Entry> buckets;

	private final BucketConfigurations configurations = new BucketConfigurations();

	private final TimeMeter timeMeter;

	/**
	 * Creates a store.
	 * @param maxKeys the most buckets kept
	 * @param timeMeter the clock of the buckets ({@link TimeMeter#SYSTEM_NANOTIME} outside tests)
	 */
	public InMemoryRateLimitStore(long maxKeys, TimeMeter timeMeter) {
		this.timeMeter = timeMeter;
		this.buckets = Caffeine.newBuilder().maximumSize(maxKeys).expireAfter(new IdleExpiry()).build();
	}

	@Override
	public StoreDecision decide(List<LimitCheck> checks) {
		int size = checks.size();
		List<CheckResult> results = new ArrayList<>(size);
		Bucket[] taken = new Bucket[size];
		boolean admitted = true;
		for (int i = 0; i < size; i++) {
			LimitCheck check = checks.get(i);
			Bucket bucket = bucket(check);
			VerboseResult<Boolean> result = bucket.asVerbose().tryConsume(check.cost());
			boolean consumed = result.getValue();
			if (consumed) {
				taken[i] = bucket;
			}
			else {
				admitted = false;
			}
			results.add(new CheckResult(consumed, sizes(result.getState(), check)));
		}
		if (!admitted) {
			refund(checks, taken, results);
		}
		return new StoreDecision(admitted, results);
	}

	private void refund(List<LimitCheck> checks, Bucket[] taken, List<CheckResult> results) {
		for (int i = 0; i < taken.length; i++) {
			if (taken[i] != null) {
				long cost = checks.get(i).cost();
				taken[i].addTokens(cost);
				long[] available = results.get(i).available();
				var bandwidths = checks.get(i).policy().limit().bandwidths();
				for (int b = 0; b < available.length; b++) {
					available[b] = Math.min(bandwidths.get(b).capacity(), available[b] + cost);
				}
			}
		}
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
		return new Entry(builder.build(), BucketConfigurations.timeToFull(check.policy()));
	}

	/** Tokens per bandwidth; never above capacity after a refund, never negative. */
	private static long[] sizes(BucketState state, LimitCheck check) {
		int count = check.policy().limit().bandwidths().size();
		long[] sizes = new long[count];
		for (int b = 0; b < count; b++) {
			sizes[b] = Math.max(0, state.getCurrentSize(b));
		}
		return sizes;
	}

	/** The number of buckets held (approximate, as Caffeine's estimate). */
	public long size() {
		return this.buckets.estimatedSize();
	}

	/** Runs pending evictions now (tests and the Actuator endpoint want an exact size). */
	public void cleanUp() {
		this.buckets.cleanUp();
	}

	private record Entry(Bucket bucket, Duration idleTimeToLive) {
	}

	private static final class IdleExpiry implements Expiry<String, Entry> {

		@Override
		public long expireAfterCreate(String key, Entry entry, long currentTime) {
			return entry.idleTimeToLive().toNanos();
		}

		@Override
		public long expireAfterUpdate(String key, Entry entry, long currentTime, long currentDuration) {
			return entry.idleTimeToLive().toNanos();
		}

		@Override
		public long expireAfterRead(String key, Entry entry, long currentTime, long currentDuration) {
			return entry.idleTimeToLive().toNanos();
		}

	}

}
