package io.github.ratelimit.core;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.github.ratelimit.control.RuntimeControl;
import io.github.ratelimit.control.Subject;
import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.policy.PolicyTable;
import io.github.ratelimit.storage.BandwidthResult;
import io.github.ratelimit.storage.CheckResult;
import io.github.ratelimit.storage.LimitCheck;
import io.github.ratelimit.storage.RateLimitStore;
import io.github.ratelimit.storage.StoreKeys;

/**
 * What a subject has in the store, for operators: a bucket for every limit of its
 * dimension (each tier's and group's, the backstop's, and its overrides'), whichever tier
 * it calls in. Read without taking a token, or reset to full.
 */
public final class SubjectBuckets {

	private final RuntimeControl control;

	private final RateLimitStore store;

	private final StoreKeys keys;

	/**
	 * Creates the reader.
	 * @param control the policy table and the overrides in force
	 * @param store where the buckets are
	 * @param keys the layout of the keys the limiter asks the store about
	 */
	public SubjectBuckets(RuntimeControl control, RateLimitStore store, StoreKeys keys) {
		this.control = control;
		this.store = store;
		this.keys = keys;
	}

	/**
	 * The subject's buckets as the store holds them now; a bucket it never used is full.
	 * @throws io.github.ratelimit.storage.StoreUnavailableException when the store cannot
	 * answer
	 * @throws UnsupportedOperationException when the store cannot read buckets without
	 * changing them
	 */
	public List<BucketState> read(Subject subject) {
		List<LimitCheck> checks = checks(subject);
		List<CheckResult> results = this.store.inspect(checks);
		List<BucketState> buckets = new ArrayList<>();
		for (int i = 0; i < checks.size(); i++) {
			Policy policy = checks.get(i).policy();
			List<BandwidthResult> bandwidths = results.get(i).bandwidths();
			for (int b = 0; b < bandwidths.size(); b++) {
				BandwidthResult result = bandwidths.get(b);
				buckets.add(new BucketState(policy.bandwidthName(b), policy.limit().spec(),
						policy.limit().bandwidths().get(b).quota(), Math.max(0, result.remaining()),
						(result.millisUntilFull() + 999) / 1000));
			}
		}
		return buckets;
	}

	/**
	 * Forgets the subject's buckets: they start full.
	 * @return how many buckets were reset
	 * @throws io.github.ratelimit.storage.StoreUnavailableException when the store cannot
	 * answer
	 * @throws UnsupportedOperationException when the store cannot forget buckets
	 */
	public int reset(Subject subject) {
		List<LimitCheck> checks = checks(subject);
		this.store.reset(checks);
		return checks.size();
	}

	/**
	 * One check per bucket of the subject: overrides first, so that a bucket an override
	 * shares with a tier limit is read with the override's limit.
	 */
	List<LimitCheck> checks(Subject subject) {
		PolicyTable table = this.control.table();
		Dimension dimension = subject.dimension();
		List<Policy> candidates = new ArrayList<>(this.control.overridesOf(dimension, subject.value()).values());
		for (String tier : table.tiers()) {
			for (String group : table.groups()) {
				candidates.addAll(table.policies(tier, group));
			}
		}
		for (String group : table.groups()) {
			Policy concurrency = table.groupConcurrency(group, dimension == Dimension.USER);
			if (concurrency != null) {
				candidates.add(concurrency);
			}
			// the backstop alone, as for a caller of no configured tier
			candidates.addAll(table.backstop(group));
		}
		Map<String, LimitCheck> byKey = new LinkedHashMap<>();
		for (Policy policy : candidates) {
			if (policy.dimension() == dimension && !policy.limit().blocked()) {
				String key = storeKey(policy, subject);
				byKey.putIfAbsent(key, new LimitCheck(policy, key, 1, true));
			}
		}
		return new ArrayList<>(byKey.values());
	}

	// the store key layout: the one place this class names it
	private String storeKey(Policy policy, Subject subject) {
		return this.keys.key(policy, subject.value());
	}

}
