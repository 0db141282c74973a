package io.github.ratelimit.core;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.storage.CheckResult;
import io.github.ratelimit.storage.LimitCheck;
import io.github.ratelimit.storage.RateLimitStore;
import io.github.ratelimit.storage.StoreKeys;

/**
 * Reads buckets without taking a token from them, for whoever reports them (an operator's
 * view of one subject, a caller's view of its own standing): one store call for them all,
 * each bucket read once however many policies count in it (an override counts in the
 * bucket of the tier limit it replaces; a group without a limit of its own counts in
 * {@code default}'s).
 */
public final class BucketReader {

	private final RateLimitStore store;

	private final StoreKeys keys;

	/**
	 * Creates the reader.
	 * @param store where the buckets are
	 * @param keys the layout of the keys the limiter asks the store about
	 */
	public BucketReader(RateLimitStore store, StoreKeys keys) {
		this.store = store;
		this.keys = keys;
	}

	/**
	 * Reads the bucket of each policy for an id; a bucket never used reads full. Policies
	 * that count in the same bucket get the same reading, read with the limit of the
	 * first of them.
	 * @param ids each policy to read, with the id of its bucket (the caller's id in the
	 * policy's dimension), in the order of the readings
	 * @return one reading per policy, in order; empty (and no store call) for none
	 * @throws io.github.ratelimit.storage.StoreUnavailableException when the store cannot
	 * answer
	 * @throws UnsupportedOperationException when the store cannot read buckets without
	 * changing them
	 */
	public List<Reading> read(Map<Policy, String> ids) {
		Map<String, LimitCheck> byKey = new LinkedHashMap<>();
		List<String> keyOfEach = new ArrayList<>(ids.size());
		ids.forEach((policy, id) -> {
			String key = this.keys.key(policy, id);
			keyOfEach.add(key);
			byKey.putIfAbsent(key, new LimitCheck(policy, key, 1, true));
		});
		if (byKey.isEmpty()) {
			return List.of();
		}
		List<LimitCheck> checks = new ArrayList<>(byKey.values());
		List<CheckResult> results = this.store.inspect(checks);
		Map<String, Reading> readings = new LinkedHashMap<>();
		for (int i = 0; i < checks.size(); i++) {
			LimitCheck check = checks.get(i);
			readings.put(check.key(), new Reading(check.policy(), check.key(), results.get(i)));
		}
		List<Reading> each = new ArrayList<>(ids.size());
		int i = 0;
		for (Policy policy : ids.keySet()) {
			Reading shared = readings.get(keyOfEach.get(i++));
			each.add((shared.policy() == policy) ? shared : new Reading(policy, shared.bucket(), shared.result()));
		}
		return each;
	}

	/**
	 * What the store holds in one policy's bucket.
	 *
	 * @param policy the policy read
	 * @param bucket which bucket it counts in: the same for policies that share one
	 * @param result the bucket's state, one result per bandwidth of the limit it was read
	 * with
	 */
	public record Reading(Policy policy, String bucket, CheckResult result) {

	}

}
