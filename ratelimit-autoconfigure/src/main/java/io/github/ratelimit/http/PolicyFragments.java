package io.github.ratelimit.http;

import java.util.List;

import org.jspecify.annotations.Nullable;

import io.github.ratelimit.core.PolicyState;
import io.github.ratelimit.policy.Bandwidth;
import io.github.ratelimit.policy.ConcurrencyLimit;
import io.github.ratelimit.policy.Policy;

/**
 * The parts of the rate-limit headers that depend on a policy only, computed once per
 * policy so that the request path just appends the two numbers that change (remaining and
 * reset).
 */
final class PolicyFragments {

	private final String ietfPolicy;

	private final String[] ietfRemainingPrefixes;

	private final String[] limits;

	private final String[] legacyPolicies;

	private final String[] draft7Prefixes;

	/**
	 * The last full {@code RateLimit-Policy} value that started with this policy. Callers
	 * of one tier and group check the same policies request after request, so this
	 * usually saves joining them again. Immutable and replaced whole, so a race only
	 * costs a recomputation.
	 */
	private volatile @Nullable JoinedPolicies lastJoined;

	private PolicyFragments(Policy policy) {
		List<Bandwidth> bandwidths = policy.limit().bandwidths();
		int count = bandwidths.size();
		this.ietfRemainingPrefixes = new String[count];
		this.limits = new String[count];
		this.legacyPolicies = new String[count];
		this.draft7Prefixes = new String[count];
		StringBuilder ietfPolicy = new StringBuilder(64 * Math.max(1, count));
		for (int i = 0; i < count; i++) {
			Bandwidth bandwidth = bandwidths.get(i);
			String quotedName = StructuredFieldStrings.quote(policy.bandwidthName(i));
			// the quota is what a window refills; a burst above it is said in a vendor
			// parameter, so that no
			// client takes a one-off burst for the sustained rate
			String limit = Long.toString(bandwidth.quota());
			String window = Long.toString(bandwidth.windowSeconds());
			if (i > 0) {
				ietfPolicy.append(", ");
			}
			ietfPolicy.append(quotedName).append(";q=").append(limit).append(";w=").append(window);
			if (bandwidth.capacity() > bandwidth.quota()) {
				ietfPolicy.append(";rl-burst=").append(bandwidth.capacity());
			}
			if (bandwidth instanceof ConcurrencyLimit) {
				ietfPolicy.append(";qu=\"concurrent-requests\"");
			}
			this.ietfRemainingPrefixes[i] = quotedName.concat(";r=");
			this.limits[i] = limit;
			this.legacyPolicies[i] = legacyPolicy(bandwidth);
			this.draft7Prefixes[i] = "limit=".concat(limit).concat(", remaining=");
		}
		this.ietfPolicy = ietfPolicy.toString();
	}

	static PolicyFragments of(Policy policy) {
		return new PolicyFragments(policy);
	}

	/**
	 * The policy's members of the IETF {@code RateLimit-Policy} List, one per bandwidth:
	 * {@code "premium-user-auth-1m";q=50;w=60, "premium-user-auth-1h";q=500;w=3600}.
	 */
	String ietfPolicy() {
		return this.ietfPolicy;
	}

	/** The last joined value that started with this policy, or {@code null}. */
	@Nullable JoinedPolicies lastJoined() {
		return this.lastJoined;
	}

	void lastJoined(JoinedPolicies joined) {
		this.lastJoined = joined;
	}

	/**
	 * The start of the IETF {@code RateLimit} member of a bandwidth:
	 * {@code "premium-user-auth";r=}.
	 */
	String ietfRemainingPrefix(int bandwidthIndex) {
		return this.ietfRemainingPrefixes[bandwidthIndex];
	}

	/** The quota of a bandwidth (what a window refills), as a header value. */
	String limit(int bandwidthIndex) {
		return this.limits[bandwidthIndex];
	}

	/** The older drafts' {@code RateLimit-Policy} of a bandwidth: {@code 100;w=60}. */
	String legacyPolicy(int bandwidthIndex) {
		return this.legacyPolicies[bandwidthIndex];
	}

	/**
	 * The start of the draft-07 {@code RateLimit} Dictionary:
	 * {@code limit=100, remaining=}.
	 */
	String draft7Prefix(int bandwidthIndex) {
		return this.draft7Prefixes[bandwidthIndex];
	}

	/** The older drafts' policy of a bandwidth, {@code <quota>;w=<window seconds>}. */
	static String legacyPolicy(Bandwidth bandwidth) {
		return Long.toString(bandwidth.quota()).concat(";w=").concat(Long.toString(bandwidth.windowSeconds()));
	}

	/**
	 * A {@code RateLimit-Policy} value of several policies.
	 *
	 * @param policies the policies, in order
	 * @param value their members, joined
	 */
	record JoinedPolicies(Policy[] policies, String value) {

		/**
		 * Whether {@code states} hold exactly these policies, in this order (no
		 * allocation).
		 */
		boolean matches(List<PolicyState> states) {
			int next = 0;
			@Nullable Policy previous = null;
			for (int i = 0; i < states.size(); i++) {
				Policy policy = states.get(i).policy();
				if (policy != previous) {
					if (next == this.policies.length || this.policies[next] != policy) {
						return false;
					}
					next++;
					previous = policy;
				}
			}
			return next == this.policies.length;
		}

	}

}
