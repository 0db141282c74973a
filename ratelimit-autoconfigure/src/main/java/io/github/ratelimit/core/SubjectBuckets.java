package io.github.ratelimit.core;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

import io.github.ratelimit.control.RuntimeControl;
import io.github.ratelimit.control.Subject;
import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.policy.PolicyTable;
import io.github.ratelimit.storage.BandwidthResult;
import io.github.ratelimit.storage.LimitCheck;
import io.github.ratelimit.storage.RateLimitStore;
import io.github.ratelimit.storage.StoreKeys;

/**
 * What a subject has in the store, for operators: a bucket for every limit of its
 * dimension (each tier's and group's, the backstop's, and its overrides'), whichever tier
 * it calls in. Read without taking a token ({@link BucketReader}), or reset to full.
 */
public final class SubjectBuckets {

	private final RuntimeControl control;

	private final RateLimitStore store;

	private final StoreKeys keys;

	private final BucketReader reader;

	private final @Nullable Consumer<List<LimitCheck>> forgetLocally;

	/**
	 * Creates the reader.
	 * @param control the policy table and the overrides in force
	 * @param store where the buckets are
	 * @param keys the layout of the keys the limiter asks the store about
	 */
	public SubjectBuckets(RuntimeControl control, RateLimitStore store, StoreKeys keys) {
		this(control, store, keys, null);
	}

	/**
	 * Creates the reader of a limiter that holds some of a remote store's state in memory
	 * (remembered refusals, reserved tokens: {@link RateLimiter#forgetLocally}): a reset
	 * forgets the subject's.
	 * @param control the policy table and the overrides in force
	 * @param store where the buckets are
	 * @param keys the layout of the keys the limiter asks the store about
	 * @param forgetLocally forgets what the limiter holds of buckets, or {@code null}
	 */
	public SubjectBuckets(RuntimeControl control, RateLimitStore store, StoreKeys keys,
			@Nullable Consumer<List<LimitCheck>> forgetLocally) {
		this.forgetLocally = forgetLocally;
		this.control = control;
		this.store = store;
		this.keys = keys;
		this.reader = new BucketReader(store, keys);
	}

	/**
	 * The subject's buckets as the store holds them now; a bucket it never used is full.
	 * @throws io.github.ratelimit.storage.StoreUnavailableException when the store cannot
	 * answer
	 * @throws UnsupportedOperationException when the store cannot read buckets without
	 * changing them
	 */
	public List<BucketState> read(Subject subject) {
		Map<Policy, String> ids = new LinkedHashMap<>();
		for (Policy policy : candidates(subject)) {
			ids.put(policy, subject.value());
		}
		List<BucketState> buckets = new ArrayList<>();
		Set<String> seen = new HashSet<>();
		for (BucketReader.Reading reading : this.reader.read(ids)) {
			// a bucket once, with the limit it was read with (an override's before a
			// tier's)
			if (!seen.add(reading.bucket())) {
				continue;
			}
			Policy policy = reading.policy();
			List<BandwidthResult> bandwidths = reading.result().bandwidths();
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
		if (this.forgetLocally != null) {
			// this instance's only: another instance refuses from memory until the
			// refusal it remembered runs out, and spends the tokens it reserved
			this.forgetLocally.accept(checks);
		}
		return checks.size();
	}

	/** One check per bucket of the subject, with the limit it is read with. */
	List<LimitCheck> checks(Subject subject) {
		Map<String, LimitCheck> byKey = new LinkedHashMap<>();
		for (Policy policy : candidates(subject)) {
			String key = this.keys.key(policy, subject.value());
			byKey.putIfAbsent(key, new LimitCheck(policy, key, 1, true));
		}
		return new ArrayList<>(byKey.values());
	}

	/**
	 * Every policy of the subject's dimension that has a bucket: overrides first, so that
	 * a bucket an override shares with a tier limit is read with the override's limit.
	 */
	private List<Policy> candidates(Subject subject) {
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
		return candidates.stream()
			.filter((policy) -> policy.dimension() == dimension && !policy.limit().blocked())
			.toList();
	}

}
