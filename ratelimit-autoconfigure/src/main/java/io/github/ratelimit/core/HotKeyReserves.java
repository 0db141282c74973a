package io.github.ratelimit.core;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import org.jspecify.annotations.Nullable;

import io.github.ratelimit.policy.Bandwidth;
import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.policy.TokenBucket;
import io.github.ratelimit.storage.CheckResult;
import io.github.ratelimit.storage.LimitCheck;
import io.github.ratelimit.storage.RateLimitStore;
import io.github.ratelimit.storage.StoreDecision;

/**
 * Tokens a remote store gave this instance in advance for its hot buckets, spent here
 * without asking the store: a bucket this instance decides at least a reserve's worth of
 * times a second takes a reserve of several tokens in one call, and requests whose every
 * bucket holds a reserve are admitted from them. The tokens are taken from the store
 * before they are spent, so all instances together never admit more than the limit; what
 * an instance holds is only unavailable to the others for a while. Unspent tokens go back
 * to the store when the reserve expires ({@link #hold}), which for a token bucket is
 * exact (a give-back is capped at the capacity, as the bucket itself would have been).
 * <p>
 * Only token buckets whose smallest capacity is at least {@value #CAPACITY_SHARE}
 * reserves' worth qualify: a reserve is at most a {@value #CAPACITY_SHARE}th of the
 * bucket and at most {@code maxTokens}, so an instance holds back at most that much of
 * any limit. Only enforced checks that never wait and count every response, and never
 * calendar quotas, windows or concurrency caps (a give-back to a window that has rolled
 * over would count against the next). A bucket an operator resets, and every bucket when
 * the limits change, loses its reserve (the tokens are dropped: the strict side).
 */
public final class HotKeyReserves {

	/** The most tokens one bucket's reserve takes at once by default. */
	public static final int DEFAULT_MAX_TOKENS = 100;

	/**
	 * How long a reserve's tokens are held before the unspent ones go back by default.
	 */
	public static final Duration DEFAULT_HOLD = Duration.ofSeconds(1);

	/** A reserve is at most this fraction of its bucket's smallest capacity. */
	static final int CAPACITY_SHARE = 100;

	/** How many buckets the decisions per second are counted for at most. */
	static final int MAX_TRACKED = 10_000;

	private final RateLimitStore store;

	private final Clock clock;

	private final long maxTokens;

	private final long holdMillis;

	private final Executor sweeper;

	private final Map<String, BucketHeat> heat = new ConcurrentHashMap<>();

	private final Map<String, TokenReserve> reserves = new ConcurrentHashMap<>();

	private final LongAdder admitted = new LongAdder();

	private final LongAdder refills = new LongAdder();

	private final AtomicLong nextSweep = new AtomicLong();

	private static final CompletableFuture<@Nullable StoreDecision> NONE = CompletableFuture.completedFuture(null);

	HotKeyReserves(RateLimitStore store, long maxTokens, Duration hold, Clock clock) {
		if (maxTokens < 2) {
			throw new IllegalArgumentException("maxTokens must be at least 2, was " + maxTokens);
		}
		if (hold.isNegative() || hold.isZero()) {
			throw new IllegalArgumentException("hold must be positive, was " + hold);
		}
		this.store = store;
		this.clock = clock;
		this.maxTokens = maxTokens;
		this.holdMillis = hold.toMillis();
		// the expiry of a reserve nobody asks for any more; a late run only holds its
		// tokens a little longer
		this.sweeper = CompletableFuture.delayedExecutor(this.holdMillis + 10, TimeUnit.MILLISECONDS);
	}

	/**
	 * How many tokens a reserve of a check's bucket takes, or 0 when the check never
	 * draws on reserves.
	 */
	long reserveSize(LimitCheck check) {
		Policy policy = check.policy();
		if (!check.enforced() || check.maxWaitMillis() != 0 || policy.countsByOutcome()) {
			return 0;
		}
		List<Bandwidth> bandwidths = policy.limit().bandwidths();
		if (bandwidths.isEmpty()) {
			return 0;
		}
		long smallest = Long.MAX_VALUE;
		for (Bandwidth bandwidth : bandwidths) {
			if (!(bandwidth instanceof TokenBucket)) {
				return 0;
			}
			smallest = Math.min(smallest, bandwidth.capacity());
		}
		long size = Math.min(this.maxTokens, smallest / CAPACITY_SHARE);
		return (size >= 2 && check.cost() <= size / 2) ? size : 0;
	}

	/**
	 * Admits a request from the reserves of its buckets when each holds its cost; when
	 * its buckets are hot and a reserve runs short, takes reserves from the store first
	 * (blocking, in place of the request's own call) and admits it from them.
	 * @param checks the request's checks
	 * @return the admission, with the numbers the store gave last plus what the reserves
	 * still hold, or {@code null} when the store must decide the request
	 */
	@Nullable StoreDecision admit(List<LimitCheck> checks) {
		if (!hot(checks)) {
			return null;
		}
		StoreDecision admitted = spend(checks);
		if (admitted != null) {
			return admitted;
		}
		Refill refill = refill(checks, this.clock.millis());
		if (refill == null) {
			return null;
		}
		try {
			filled(refill, this.store.decide(refill.checks()), null);
		}
		catch (RuntimeException ex) {
			filled(refill, null, ex);
		}
		return spend(checks);
	}

	/**
	 * As {@link #admit(List)}, without blocking: a reserve the request waits for comes
	 * from {@link RateLimitStore#decideAsync}.
	 * @param checks the request's checks
	 * @return the admission, or {@code null} when the store must decide the request
	 */
	CompletableFuture<@Nullable StoreDecision> admitAsync(List<LimitCheck> checks) {
		if (!hot(checks)) {
			return NONE;
		}
		StoreDecision admitted = spend(checks);
		if (admitted != null) {
			return CompletableFuture.completedFuture(admitted);
		}
		Refill refill = refill(checks, this.clock.millis());
		if (refill == null) {
			return NONE;
		}
		CompletableFuture<StoreDecision> answer;
		try {
			answer = this.store.decideAsync(refill.checks());
		}
		catch (RuntimeException ex) {
			filled(refill, null, ex);
			return NONE;
		}
		return answer.handle((decision, failure) -> {
			filled(refill, decision, failure);
			return spend(checks);
		});
	}

	// counts the request toward the heat of its buckets: whether every one is hot
	private boolean hot(List<LimitCheck> checks) {
		long now = this.clock.millis();
		sweepIfDue(now);
		boolean hot = true;
		for (int i = 0; i < checks.size(); i++) {
			LimitCheck check = checks.get(i);
			long size = reserveSize(check);
			if (size == 0) {
				return false;
			}
			hot &= heatOf(check.key(), now) >= size;
		}
		return hot;
	}

	// takes the request's cost from the reserve of each of its buckets, or nothing; a
	// reserve left under half full is refilled in the background
	private @Nullable StoreDecision spend(List<LimitCheck> checks) {
		int n = checks.size();
		TokenReserve[] taken = new TokenReserve[n];
		boolean low = false;
		for (int i = 0; i < n; i++) {
			LimitCheck check = checks.get(i);
			TokenReserve reserve = this.reserves.get(check.key());
			if (reserve == null || !reserve.take(check.cost())) {
				undo(checks, taken, i);
				return null;
			}
			taken[i] = reserve;
			low |= reserve.tokens.get() * 2 < reserveSize(check);
		}
		if (low) {
			refillInBackground(checks);
		}
		this.admitted.increment();
		List<CheckResult> results = new ArrayList<>(n);
		for (int i = 0; i < n; i++) {
			results.add(taken[i].report(checks.get(i)));
		}
		return new StoreDecision(true, results);
	}

	private static void undo(List<LimitCheck> checks, TokenReserve[] taken, int count) {
		for (int i = 0; i < count; i++) {
			taken[i].tokens.addAndGet(checks.get(i).cost());
		}
	}

	/**
	 * The store's answer to a request, with what this instance's reserves hold added to
	 * each bucket's remaining tokens: the tokens are the bucket's, taken early.
	 */
	StoreDecision withReserves(List<LimitCheck> checks, StoreDecision decision) {
		if (this.reserves.isEmpty()) {
			return decision;
		}
		List<CheckResult> results = null;
		for (int i = 0; i < checks.size(); i++) {
			TokenReserve reserve = this.reserves.get(checks.get(i).key());
			if (reserve == null) {
				continue;
			}
			// the store's view is fresher than the last refill's
			reserve.last = decision.results().get(i);
			long held = reserve.tokens.get();
			if (held > 0) {
				if (results == null) {
					results = new ArrayList<>(decision.results());
				}
				results.set(i, TokenReserve.plus(checks.get(i), decision.results().get(i), held));
			}
		}
		return (results != null)
				? new StoreDecision(decision.admitted(), results, decision.waitMillis(), decision.permits()) : decision;
	}

	// counts a decision of a bucket; the heat is the larger of this and the last second's
	private long heatOf(String key, long now) {
		long second = now / 1000;
		BucketHeat entry = this.heat.get(key);
		if (entry == null) {
			if (this.heat.size() >= MAX_TRACKED) {
				// a flood of distinct buckets: none of them is hot, start counting afresh
				this.heat.clear();
			}
			entry = this.heat.computeIfAbsent(key, (k) -> new BucketHeat(second));
		}
		return entry.count(second);
	}

	// a reserve for each bucket of the request under half full, to take in one store
	// call (all or none); null when one is under way or was refused lately
	private @Nullable Refill refill(List<LimitCheck> checks, long now) {
		List<LimitCheck> wanted = new ArrayList<>(checks.size());
		List<TokenReserve> filling = new ArrayList<>(checks.size());
		for (LimitCheck check : checks) {
			long size = reserveSize(check);
			TokenReserve reserve = this.reserves.computeIfAbsent(check.key(),
					(key) -> new TokenReserve(check.policy(), key, now + this.holdMillis));
			if (reserve.tokens.get() * 2 >= size) {
				continue;
			}
			if (reserve.refusedUntil > now || !reserve.startFilling()) {
				release(filling);
				return null;
			}
			filling.add(reserve);
			wanted.add(new LimitCheck(check.policy(), check.key(), size, true));
		}
		if (wanted.isEmpty()) {
			return null;
		}
		this.refills.increment();
		return new Refill(wanted, filling);
	}

	private void refillInBackground(List<LimitCheck> checks) {
		Refill refill = refill(checks, this.clock.millis());
		if (refill == null) {
			return;
		}
		try {
			this.store.decideAsync(refill.checks())
				.whenComplete((decision, failure) -> filled(refill, decision, failure));
		}
		catch (RuntimeException ex) {
			filled(refill, null, ex);
		}
	}

	private void filled(Refill refill, @Nullable StoreDecision decision, @Nullable Throwable failure) {
		List<LimitCheck> wanted = refill.checks();
		List<TokenReserve> filling = refill.reserves();
		long now = this.clock.millis();
		if (failure != null || decision == null || !decision.admitted()) {
			// the bucket has less than a reserve: ask per request until the hold has
			// passed
			for (TokenReserve reserve : filling) {
				reserve.refusedUntil = now + this.holdMillis;
			}
			release(filling);
			return;
		}
		List<LimitCheck> orphaned = null;
		for (int i = 0; i < filling.size(); i++) {
			TokenReserve reserve = filling.get(i);
			LimitCheck check = wanted.get(i);
			if (this.reserves.get(check.key()) != reserve) {
				// forgotten while the store answered (the limits changed, or a reset)
				orphaned = (orphaned != null) ? orphaned : new ArrayList<>();
				orphaned.add(check);
				continue;
			}
			reserve.filled(decision.results().get(i), check.cost(), now + this.holdMillis);
		}
		release(filling);
		if (orphaned != null) {
			this.store.giveBack(orphaned);
		}
		try {
			this.sweeper.execute(() -> sweep(this.clock.millis()));
		}
		catch (RuntimeException ex) {
			// the next decision sweeps
		}
	}

	private static void release(List<TokenReserve> filling) {
		for (TokenReserve reserve : filling) {
			reserve.filling.set(0);
		}
	}

	private void sweepIfDue(long now) {
		long due = this.nextSweep.get();
		if (now >= due && this.nextSweep.compareAndSet(due, now + this.holdMillis / 2 + 1)) {
			sweep(now);
		}
	}

	/**
	 * Gives back the unspent tokens of reserves held past their hold, and forgets the
	 * heat of past seconds. Runs by itself after each hold and on decisions.
	 * @param now the time now
	 */
	public void sweep(long now) {
		List<LimitCheck> back = null;
		for (TokenReserve reserve : this.reserves.values()) {
			if (reserve.expiresAt > now || reserve.filling.get() != 0) {
				continue;
			}
			long unspent = reserve.tokens.getAndSet(0);
			this.reserves.remove(reserve.key, reserve);
			if (unspent > 0) {
				back = (back != null) ? back : new ArrayList<>();
				back.add(new LimitCheck(reserve.policy, reserve.key, unspent, true));
			}
		}
		long second = now / 1000;
		this.heat.values().removeIf((entry) -> entry.second < second - 1);
		if (back != null) {
			this.store.giveBack(back);
		}
	}

	/**
	 * Drops the reserves of some buckets, without giving their tokens back (an operator
	 * reset them: they are full again).
	 */
	void forget(List<LimitCheck> checks) {
		for (LimitCheck check : checks) {
			this.reserves.remove(check.key());
		}
	}

	/**
	 * Drops every reserve without giving the tokens back (the limits changed: what was
	 * taken under the old ones is not spent under the new).
	 */
	void forgetAll() {
		this.reserves.clear();
		this.heat.clear();
	}

	/**
	 * Whether this instance holds tokens of any of the checks' buckets: a refusal of them
	 * is not remembered, since the tokens go back to the store within the hold.
	 */
	boolean holdsAny(List<LimitCheck> checks) {
		if (this.reserves.isEmpty()) {
			return false;
		}
		for (LimitCheck check : checks) {
			TokenReserve reserve = this.reserves.get(check.key());
			if (reserve != null && reserve.tokens.get() > 0) {
				return true;
			}
		}
		return false;
	}

	/** How many requests were admitted from reserves, without asking the store. */
	public long admitted() {
		return this.admitted.sum();
	}

	/** How many reserves were asked of the store. */
	public long refills() {
		return this.refills.sum();
	}

	/** How many tokens this instance holds in reserves now. */
	public long held() {
		long held = 0;
		for (TokenReserve reserve : this.reserves.values()) {
			held += reserve.tokens.get();
		}
		return held;
	}

	/**
	 * Reserves being taken from the store, one check each.
	 *
	 * @param checks what is asked of the store: each bucket with a reserve's cost
	 * @param reserves the reserves they fill, in the same order
	 */
	private record Refill(List<LimitCheck> checks, List<TokenReserve> reserves) {

	}

}
