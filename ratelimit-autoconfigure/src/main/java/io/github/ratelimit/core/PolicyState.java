package io.github.ratelimit.core;

import io.github.ratelimit.policy.Bandwidth;
import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.Policy;

/**
 * The state of one bandwidth of one policy after a decision: a member of
 * {@code RateLimit-Policy}.
 *
 * @param policy the policy
 * @param bandwidthIndex which bandwidth of the policy's limit
 * @param id whose bucket it is (user name, org, client address; a token hash for tokens)
 * @param remaining tokens left (after this request when admitted)
 * @param resetSeconds seconds until the bucket holds the request's cost again ({@code 0}
 * while it does), and on a violation until this request could pass (at least 1 then):
 * what {@code t} and {@code X-RateLimit-Reset} report
 * @param violated whether this bandwidth refused the request
 */
public record PolicyState(Policy policy, int bandwidthIndex, String id, long remaining, long resetSeconds,
		boolean violated) {

	public Bandwidth bandwidth() {
		return this.policy.limit().bandwidths().get(this.bandwidthIndex);
	}

	/** The name reported in headers and in {@code violated-policies}. */
	public String name() {
		return this.policy.bandwidthName(this.bandwidthIndex);
	}

	/**
	 * The quota ({@code q}): what a window refills. A burst lets the bucket hold more
	 * than this ({@code r} may exceed it), but the sustained rate is this per window.
	 */
	public long limit() {
		return bandwidth().quota();
	}

	/** The window ({@code w}) in seconds. */
	public long windowSeconds() {
		return bandwidth().windowSeconds();
	}

	public Dimension dimension() {
		return this.policy.dimension();
	}

}
