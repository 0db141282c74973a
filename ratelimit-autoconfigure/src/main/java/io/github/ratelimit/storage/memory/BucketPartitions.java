package io.github.ratelimit.storage.memory;

import java.time.Clock;
import java.util.concurrent.atomic.AtomicLong;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.RemovalCause;
import io.github.bucket4j.TimeMeter;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.ratelimit.policy.Policy;

/**
 * Where the in-memory store's buckets live: two Caffeine maps, each bounded on its own.
 * Anyone can make a new address, so address buckets are bounded apart from those of
 * verified callers (users, orgs, tokens), which a flood of addresses must not evict. An
 * entry that holds permits weighs nothing, so the bound passes it over; the identified
 * bound warns when it evicts, at most once a minute.
 */
final class BucketPartitions {

	// the store's category, which users may have configured already
	private static final Logger logger = LoggerFactory.getLogger(InMemoryRateLimitStore.class);

	/** How often, at most, the identified bound's evictions are logged. */
	private static final long EVICTION_WARNING_INTERVAL_MILLIS = 60_000;

	private final Cache<String, Entry> addresses;

	private final Cache<String, Entry> identified;

	private final com.github.benmanes.caffeine.cache.Policy<String, Entry> addressPolicy;

	private final com.github.benmanes.caffeine.cache.Policy<String, Entry> identifiedPolicy;

	private final TimeMeter timeMeter;

	private final Clock clock;

	private final long maxIdentifiedKeys;

	private final AtomicLong identifiedEvictions = new AtomicLong();

	private final AtomicLong nextEvictionWarningMillis = new AtomicLong(Long.MIN_VALUE);

	/**
	 * Creates the two maps.
	 * @param maxKeys the most buckets kept for client addresses
	 * @param maxIdentifiedKeys the most buckets kept for users, orgs and tokens
	 * @param timeMeter the clock of idle expiry
	 * @param clock the wall clock of quota periods and of the eviction warning
	 */
	BucketPartitions(long maxKeys, long maxIdentifiedKeys, TimeMeter timeMeter, Clock clock) {
		this.timeMeter = timeMeter;
		this.clock = clock;
		this.maxIdentifiedKeys = maxIdentifiedKeys;
		this.addresses = newMap(maxKeys).build();
		this.identified = newMap(maxIdentifiedKeys).evictionListener((String key, Entry entry, RemovalCause cause) -> {
			if (cause == RemovalCause.SIZE) {
				identifiedEvicted();
			}
		}).build();
		this.addressPolicy = this.addresses.policy();
		this.identifiedPolicy = this.identified.policy();
	}

	private Caffeine<String, Entry> newMap(long maxKeys) {
		// the map's upkeep runs on the request thread that triggers it, a few entries
		// at a time: handing it to the common pool woke a thread for every batch of
		// reads, which cost more than the upkeep itself under load
		return Caffeine.newBuilder()
			.executor(Runnable::run)
			.ticker(this.timeMeter::currentTimeNanos)
			.maximumWeight(maxKeys)
			.weigher((String key, Entry entry) -> entry.pinned() ? 0 : 1)
			.expireAfter(new IdleExpiry(this.clock));
	}

	/** The map of a policy's buckets. */
	Cache<String, Entry> of(Policy policy) {
		return policy.dimension().unverified() ? this.addresses : this.identified;
	}

	/**
	 * A key's plain entry (no counts) before a take, {@code null} when the map has none.
	 * The map records a read (recency and frequency for its size bound, the idle expiry
	 * pushed out) at most once per {@link LimitLayout#readSlackNanos()} of the entry; the
	 * reads between skip that bookkeeping, which cost a busy key a microsecond per
	 * request (its read buffer drained on the request thread, its node passed between
	 * cores). A bucket more than half spent has every read recorded (see
	 * {@link Entry#takeTokens}): its frequency keeps it ahead of a flood of keys seen
	 * once. The entry's expiry leaves room for the reads it did not record.
	 * @param policy the key's policy, which picks the map
	 * @param key the key
	 * @return the entry, or {@code null}
	 */
	@Nullable Entry read(Policy policy, String key) {
		boolean address = policy.dimension().unverified();
		Entry entry = (address ? this.addressPolicy : this.identifiedPolicy).getIfPresentQuietly(key);
		if (entry != null) {
			long now = this.timeMeter.currentTimeNanos();
			long recorded = entry.recordedNanos;
			if (recorded != Entry.RECORD_NEXT_READ && now - recorded < entry.layout.readSlackNanos()) {
				return entry;
			}
			entry.recordedNanos = now;
		}
		return (address ? this.addresses : this.identified).getIfPresent(key);
	}

	private void identifiedEvicted() {
		long evicted = this.identifiedEvictions.incrementAndGet();
		long now = this.clock.millis();
		long next = this.nextEvictionWarningMillis.get();
		if (now >= next && this.nextEvictionWarningMillis.compareAndSet(next, now + EVICTION_WARNING_INTERVAL_MILLIS)) {
			logger
				.warn("The in-memory store is full of users', orgs' and tokens' buckets ({} kept): {} evicted so far, "
						+ "each back with a full budget (a quota with its whole period's); raise "
						+ "ratelimit.storage.memory.max-identified-keys", this.maxIdentifiedKeys, evicted);
		}
	}

	/** Forgets a key, as a size bound does. */
	void evict(String key) {
		this.addresses.invalidate(key);
		this.identified.invalidate(key);
	}

	long addressSize() {
		return this.addresses.estimatedSize();
	}

	long identifiedSize() {
		return this.identified.estimatedSize();
	}

	long identifiedEvictions() {
		return this.identifiedEvictions.get();
	}

	void cleanUp() {
		this.addresses.cleanUp();
		this.identified.cleanUp();
	}

}
