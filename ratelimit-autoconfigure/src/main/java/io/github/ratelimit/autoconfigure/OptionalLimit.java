package io.github.ratelimit.autoconfigure;

import org.jspecify.annotations.Nullable;

import io.github.ratelimit.policy.Limit;

/**
 * A limit that may be switched off: a limit string, or {@code none}. For budgets that are
 * on by default ({@code ratelimit.login-protection.per-account}), where leaving the
 * property out keeps the default and only a value can say "no budget".
 *
 * @param limit the limit, or {@code null} for none
 */
public record OptionalLimit(@Nullable Limit limit) {

	/** No limit. */
	public static final OptionalLimit NONE = new OptionalLimit(null);

	@Override
	public String toString() {
		return (this.limit != null) ? this.limit.spec() : "none";
	}

}
