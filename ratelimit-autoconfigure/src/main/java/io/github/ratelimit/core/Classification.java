package io.github.ratelimit.core;

/**
 * Which endpoint group a request belongs to and what it costs.
 *
 * @param group the endpoint group ({@value #DEFAULT_GROUP} when no group matched)
 * @param cost tokens charged to every applicable bucket, at least 1
 * @param excluded whether no limit applies at all (for example health checks)
 */
public record Classification(String group, long cost, boolean excluded) {

	/** The group of requests that no configured group matched. */
	public static final String DEFAULT_GROUP = "default";

	/** The classification of requests that are never limited. */
	public static final Classification EXCLUDED = new Classification(DEFAULT_GROUP, 0, true);

	public Classification {
		if (!excluded && cost < 1) {
			throw new IllegalArgumentException("cost must be at least 1, was " + cost);
		}
	}

	public static Classification of(String group, long cost) {
		return new Classification(group, cost, false);
	}

}
