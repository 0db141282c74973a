package io.github.ratelimit.policy;

import java.util.Objects;

import org.jspecify.annotations.Nullable;

/**
 * Which endpoint group a request belongs to and what it costs.
 *
 * @param group the endpoint group ({@value #DEFAULT_GROUP} when no group matched)
 * @param cost tokens charged to every applicable bucket, at least 1
 * @param excluded whether no limit applies at all (for example health checks)
 * @param inline the handler's own limit ({@code @RateLimited(limit = ...)}), or
 * {@code null}
 * @param pathVariables the variables of the pattern that classified the request, read by
 * keys of path variables; no part of equality (the same classification of another path)
 */
public record Classification(String group, long cost, boolean excluded, @Nullable InlineLimit inline,
		PathVariables pathVariables) {

	/** The group of requests that no configured group matched. */
	public static final String DEFAULT_GROUP = "default";

	/** The classification of requests that are never limited. */
	public static final Classification EXCLUDED = new Classification(DEFAULT_GROUP, 0, true);

	// most requests are classified this way: one instance, not one per request
	private static final Classification DEFAULT = new Classification(DEFAULT_GROUP, 1, false);

	public Classification {
		if (!excluded && cost < 1) {
			throw new IllegalArgumentException("cost must be at least 1, was " + cost);
		}
	}

	public Classification(String group, long cost, boolean excluded) {
		this(group, cost, excluded, null);
	}

	public Classification(String group, long cost, boolean excluded, @Nullable InlineLimit inline) {
		this(group, cost, excluded, inline, PathVariables.NONE);
	}

	public static Classification of(String group, long cost) {
		return (cost == 1 && DEFAULT_GROUP.equals(group)) ? DEFAULT : new Classification(group, cost, false);
	}

	/** This classification with a handler's own limit added. */
	public Classification withInline(@Nullable InlineLimit limit) {
		return (limit != null) ? new Classification(this.group, this.cost, this.excluded, limit, this.pathVariables)
				: this;
	}

	/** This classification with the path variables of the pattern that matched. */
	public Classification withPathVariables(PathVariables variables) {
		return new Classification(this.group, this.cost, this.excluded, this.inline, variables);
	}

	@Override
	public boolean equals(@Nullable Object other) {
		return other instanceof Classification that && this.group.equals(that.group) && this.cost == that.cost
				&& this.excluded == that.excluded && Objects.equals(this.inline, that.inline);
	}

	@Override
	public int hashCode() {
		return Objects.hash(this.group, this.cost, this.excluded, this.inline);
	}

	@Override
	public String toString() {
		return "Classification[group=" + this.group + ", cost=" + this.cost + ", excluded=" + this.excluded
				+ ", inline=" + this.inline + "]";
	}

}
