package io.github.ratelimit.policy;

import java.util.List;

/**
 * A limit as configured: the bandwidths that all apply (a request needs a token from each), or blocked.
 *
 * @param spec the limit string as parsed, normalised ({@code 50/1m, 500/1h}; {@code 0} when blocked)
 * @param bandwidths the bandwidths; empty when blocked
 */
public record Limit(String spec, List<Bandwidth> bandwidths) {

	/** A limit of {@code 0}: the tier may not use the group at all (403, waiting never helps). */
	public static final Limit BLOCKED = new Limit("0", List.of());

	public Limit {
		bandwidths = List.copyOf(bandwidths);
	}

	/** Whether this limit blocks every request. */
	public boolean blocked() {
		return this.bandwidths.isEmpty();
	}

	/** The smallest capacity: a request costing more can never be admitted. */
	public long maxCost() {
		return this.bandwidths.stream().mapToLong(Bandwidth::capacity).min().orElse(0);
	}

	@Override
	public String toString() {
		return this.spec;
	}

}
