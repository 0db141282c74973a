package io.github.ratelimit.policy;

import org.jspecify.annotations.Nullable;

/**
 * Which endpoint group a request belongs to and what it costs.
 *
 * @param group the endpoint group ({@value #DEFAULT_GROUP} when no group matched)
 * @param cost tokens charged to every applicable bucket, at least 1
 * @param excluded whether no limit applies at all (for example health checks)
 * @param inline the handler's own limit ({@code @RateLimited(limit = ...)}), or
 * {@code null}
 */
public record Classification(String group, long cost, boolean excluded, @Nullable InlineLimit inline) {

	/** The group of requests that no configured group matched. */
	public static final String DEFAULT_GROUP = "default";

	/** The classification of requests that are never limited. */
	public static final Classification EXCLUDED = new Classification(DEFAULT_GROUP, 0, true);

	public Classification {
		if (!excluded && cost < 1) {
			throw new IllegalArgumentException("cost must be at least 1, was " + cost);
		}
	}

	public Classification(String group, long cost, boolean excluded) {
		this(group, cost, excluded, null);
	}

	public static Classification of(String group, long cost) {
		return new Classification(group, cost, false);
	}

	/** This classification with a handler's own limit added. */
	public Classification withInline(@Nullable InlineLimit limit) {
		return (limit != null) ? new Classification(this.group, this.cost, this.excluded, limit) : this;
	}

}
