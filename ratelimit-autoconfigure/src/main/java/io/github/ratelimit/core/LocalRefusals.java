package io.github.ratelimit.core;

import java.time.Clock;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

import org.jspecify.annotations.Nullable;

import io.github.ratelimit.policy.ConcurrencyLimit;
import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.storage.BandwidthResult;
import io.github.ratelimit.storage.CheckResult;
import io.github.ratelimit.storage.LimitCheck;
import io.github.ratelimit.storage.StoreDecision;

/**
 * Refusals a remote store gave, remembered until the refused bucket holds the cost again:
 * until then a request that needs the same bucket for at least that cost is refused on
 * this instance without asking the store (Envoy's ratelimit calls this its local cache).
 * Only buckets that nothing but time refills are remembered (token buckets, windows,
 * quotas, leaky buckets), and only checks that are enforced and never wait: never a
 * concurrency cap (a released permit frees one), never a limit that counts by outcome (a
 * give-back frees tokens). A give-back or compensation on another instance may free
 * tokens sooner: a remembered refusal may then come early by that much.
 * <p>
 * Entries expire when the bucket refills; the map is bounded ({@link #DEFAULT_CAPACITY}),
 * and when full the entries nearest to their expiry go first. Everything is forgotten
 * when the policy table or the runtime control's overrides and rules change
 * ({@link #forgetAll()}), and a subject's buckets when an operator resets them
 * ({@link #forget(List)}).
 */
public final class LocalRefusals {

	/** How many buckets are remembered at most by default (about a megabyte). */
	public static final int DEFAULT_CAPACITY = 10_000;

	private final Map<String, Shortage> shortUntil = new ConcurrentHashMap<>();

	private final int capacity;

	private final Clock clock;

	private final LongAdder refused = new LongAdder();

	LocalRefusals(int capacity, Clock clock) {
		this.capacity = capacity;
		this.clock = clock;
	}

	/**
	 * Whether a check may be remembered and answered from memory: enforced, never
	 * waiting, and of a limit only time refills.
	 */
	static boolean eligible(LimitCheck check) {
		Policy policy = check.policy();
		return check.enforced() && check.maxWaitMillis() == 0 && !policy.countsByOutcome()
				&& !policy.limit().has(ConcurrencyLimit.class);
	}

	/**
	 * The remembered shortage of a check, or {@code null} when the store must be asked.
	 * @param check an eligible check
	 * @param nowMillis the time now
	 * @return the shortage; the request cannot pass before its end
	 */
	@Nullable Shortage shortage(LimitCheck check, long nowMillis) {
		Shortage entry = this.shortUntil.get(check.key());
		if (entry == null) {
			return null;
		}
		if (entry.untilMillis() <= nowMillis) {
			this.shortUntil.remove(check.key(), entry);
			return null;
		}
		// a smaller cost may pass sooner: only the cost refused, or more, is short
		return (check.cost() >= entry.cost()) ? entry : null;
	}

	/** Counts a refusal answered from memory. */
	void counted() {
		this.refused.increment();
	}

	/**
	 * Remembers the short buckets of a refusal the store gave.
	 * @param checks the checks asked
	 * @param decision the store's refusal
	 * @param nowMillis when it was asked
	 */
	void remember(List<LimitCheck> checks, StoreDecision decision, long nowMillis) {
		for (int i = 0; i < checks.size(); i++) {
			LimitCheck check = checks.get(i);
			if (!eligible(check)) {
				continue;
			}
			CheckResult result = decision.results().get(i);
			long wait = 0;
			int binding = -1;
			List<BandwidthResult> bandwidths = result.bandwidths();
			for (int b = 0; b < bandwidths.size(); b++) {
				long millis = bandwidths.get(b).millisUntilCost();
				if (millis > wait) {
					wait = millis;
					binding = b;
				}
			}
			if (binding >= 0) {
				put(check.key(), new Shortage(check.cost(), nowMillis + wait, binding));
			}
		}
	}

	private void put(String key, Shortage entry) {
		if (this.shortUntil.size() >= this.capacity && !this.shortUntil.containsKey(key)) {
			makeRoom();
		}
		this.shortUntil.merge(key, entry, (old, fresh) -> old.covers(fresh) ? old : fresh);
	}

	// drops the expired entries, then, while still full, the tenth nearest to expiry:
	// a sort once per tenth of the capacity, not per refusal
	private synchronized void makeRoom() {
		if (this.shortUntil.size() < this.capacity) {
			return;
		}
		long now = this.clock.millis();
		this.shortUntil.values().removeIf((entry) -> entry.untilMillis() <= now);
		int size = this.shortUntil.size();
		if (size < this.capacity) {
			return;
		}
		long[] expiries = new long[size];
		int n = 0;
		for (Iterator<Shortage> it = this.shortUntil.values().iterator(); it.hasNext() && n < size;) {
			expiries[n++] = it.next().untilMillis();
		}
		Arrays.sort(expiries, 0, n);
		long threshold = expiries[Math.max(0, n / 10 - 1)];
		this.shortUntil.values().removeIf((entry) -> entry.untilMillis() <= threshold);
	}

	/** Forgets the shortages of some buckets (an operator reset them). */
	public void forget(List<LimitCheck> checks) {
		for (LimitCheck check : checks) {
			this.shortUntil.remove(check.key());
		}
	}

	/** Forgets every shortage (the limits changed). */
	public void forgetAll() {
		this.shortUntil.clear();
	}

	/**
	 * How many buckets are remembered short now (expired ones not yet dropped included).
	 */
	public int size() {
		return this.shortUntil.size();
	}

	/** How many requests were refused from memory, without asking the store. */
	public long refused() {
		return this.refused.sum();
	}

	/**
	 * A bucket short until a moment for any request of at least a cost.
	 *
	 * @param cost the cost the store refused
	 * @param untilMillis when the bucket holds that cost again
	 * @param bandwidth the bandwidth that was short longest
	 */
	record Shortage(long cost, long untilMillis, int bandwidth) {

		// this entry says all that the other does: short for less cost, for longer
		boolean covers(Shortage other) {
			return this.cost <= other.cost && this.untilMillis >= other.untilMillis;
		}

	}

}
