package io.github.ratelimit.load;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.github.ratelimit.policy.Bandwidth;
import io.github.ratelimit.policy.CalendarQuota;
import io.github.ratelimit.policy.ConcurrencyLimit;
import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.FixedWindow;
import io.github.ratelimit.policy.LeakyBucket;
import io.github.ratelimit.policy.Limit;
import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.policy.PolicyScope;
import io.github.ratelimit.policy.SlidingWindow;
import io.github.ratelimit.policy.TokenBucket;

/**
 * The policies of a request at the size {@link LimitFactors} puts them now: a copy of
 * each with every amount scaled (at least 1), under the same name, so it counts in the
 * same buckets (the store keys a bucket by the shape of a limit, not its amounts) and the
 * headers advertise the limit in force. Copies are kept, one per policy and factor, so a
 * policy takes few sizes and the store few layouts. A leaky bucket keeps its rate: its
 * rate is part of its bucket's shape.
 */
public final class ScaledPolicies {

	/** More copies than this means the policies were replaced: start over. */
	private static final int MAX_COPIES = 10_000;

	private final LimitFactors factors;

	private final Map<Copy, Policy> copies = new ConcurrentHashMap<>();

	/**
	 * Creates the scaler.
	 * @param factors the share of their size limits are in force at
	 */
	public ScaledPolicies(LimitFactors factors) {
		this.factors = factors;
	}

	/**
	 * The state of the factors now, below 4096: it changes whenever a limit's share may
	 * have (a warm-up step, the load crossing the threshold of adaptive limits), so that
	 * what was remembered under other sizes is forgotten.
	 */
	public int state() {
		return this.factors.state();
	}

	/**
	 * The policies of a request as in force now.
	 * @param policies the policies as configured
	 * @param tier the caller's tier
	 * @param group the request's endpoint group
	 * @return the policies in force (the same list when at their configured size)
	 */
	public List<Policy> inForce(List<Policy> policies, String tier, String group) {
		int permille = this.factors.permille(tier, group);
		if (permille >= LimitFactors.WHOLE || policies.isEmpty()) {
			return policies;
		}
		List<Policy> scaled = new ArrayList<>(policies.size());
		for (Policy policy : policies) {
			scaled.add(scaled(policy, permille));
		}
		return scaled;
	}

	private Policy scaled(Policy policy, int permille) {
		if (policy.limit().blocked()) {
			return policy;
		}
		Copy key = new Copy(policy, permille);
		Policy copy = this.copies.get(key);
		if (copy == null) {
			if (this.copies.size() > MAX_COPIES) {
				this.copies.clear();
			}
			copy = this.copies.computeIfAbsent(key, (k) -> copyOf(k.policy(), k.permille()));
		}
		return copy;
	}

	static Policy copyOf(Policy policy, int permille) {
		Limit limit = scaled(policy.limit(), permille);
		String keyName = policy.keyName();
		if (policy.scope() == PolicyScope.TIER) {
			return (keyName != null)
					? Policy.keyed(policy.tier(), keyName, policy.group(), limit, policy.mode(), policy.warnAtPercent(),
							policy.counts())
					: new Policy(policy.tier(), policy.dimension(), policy.group(), limit, policy.mode(),
							policy.warnAtPercent(), policy.counts());
		}
		return (policy.dimension() == Dimension.KEY && keyName != null)
				? Policy.keyed(policy.scope(), keyName, policy.group(), limit, policy.mode(), policy.warnAtPercent(),
						policy.counts())
				: new Policy(policy.scope(), policy.dimension(), policy.group(), limit, policy.mode(),
						policy.warnAtPercent(), policy.counts());
	}

	/**
	 * A limit with every amount scaled, at least 1; its spec says the share, so a store
	 * that compares specs sees another limit.
	 */
	static Limit scaled(Limit limit, int permille) {
		List<Bandwidth> bandwidths = new ArrayList<>(limit.bandwidths().size());
		for (Bandwidth bandwidth : limit.bandwidths()) {
			bandwidths.add(scaled(bandwidth, permille));
		}
		return new Limit(limit.spec() + " at " + permille / 10.0 + "%", bandwidths);
	}

	private static Bandwidth scaled(Bandwidth bandwidth, int permille) {
		if (bandwidth instanceof TokenBucket bucket) {
			return new TokenBucket(times(bucket.capacity(), permille), times(bucket.refillTokens(), permille),
					bucket.period(), bucket.label());
		}
		if (bandwidth instanceof FixedWindow window) {
			return new FixedWindow(times(window.quota(), permille), window.period(), window.label());
		}
		if (bandwidth instanceof SlidingWindow window) {
			return new SlidingWindow(times(window.quota(), permille), window.period(), window.label());
		}
		if (bandwidth instanceof CalendarQuota quota) {
			return new CalendarQuota(times(quota.quota(), permille), quota.period(), quota.zone());
		}
		if (bandwidth instanceof ConcurrencyLimit concurrency) {
			return new ConcurrencyLimit(times(concurrency.permits(), permille));
		}
		// a leaky bucket's rate is its shape: scaled, it would start an empty bucket
		return (LeakyBucket) bandwidth;
	}

	private static long times(long amount, int permille) {
		return Math.max(1, amount * permille / LimitFactors.WHOLE);
	}

	private record Copy(Policy policy, int permille) {
	}

}
