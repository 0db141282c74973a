package io.github.ratelimit.identity;

import java.util.List;

/**
 * The proxies whose forwarding headers are believed, as CIDR ranges parsed once.
 */
final class TrustedProxies {

	private final CidrRange[] ranges;

	/**
	 * Parses the ranges.
	 * @param cidrs the ranges as configured
	 * @throws IllegalArgumentException naming the index and the reason of the first
	 * invalid range
	 */
	TrustedProxies(List<String> cidrs) {
		this.ranges = new CidrRange[cidrs.size()];
		for (int i = 0; i < this.ranges.length; i++) {
			String cidr = cidrs.get(i);
			try {
				this.ranges[i] = CidrRange.parse(cidr);
			}
			catch (IllegalArgumentException ex) {
				throw new IllegalArgumentException("trustedProxies[" + i + "]: " + ex.getMessage(), ex);
			}
		}
	}

	/**
	 * Takes ranges parsed already (by the configuration's binder).
	 * @param ranges the ranges
	 */
	TrustedProxies(CidrRange[] ranges) {
		this.ranges = ranges.clone();
	}

	boolean contains(IpAddress address) {
		for (CidrRange range : this.ranges) {
			if (range.contains(address)) {
				return true;
			}
		}
		return false;
	}

	@Override
	public String toString() {
		return List.of(this.ranges).toString();
	}

}
