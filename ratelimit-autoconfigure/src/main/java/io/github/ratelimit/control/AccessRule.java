package io.github.ratelimit.control;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * One allow or deny rule. An allow rule lets its subject bypass every limit, or, with a
 * tier, puts it in that tier; a deny rule answers 403 {@code access_denied} before any
 * store is asked.
 *
 * @param access allow or deny
 * @param subject whom it names
 * @param tier for an allow rule, the tier its subject gets instead of bypassing limits;
 * else {@code null}
 * @param expiresAt when a rule set at runtime ends; {@code null} for never
 */
public record AccessRule(Access access, Subject subject, @Nullable String tier, @Nullable Instant expiresAt) {

	/** What a rule does. */
	public enum Access {

		/** Lets the caller through without limits, or puts it in a tier. */
		ALLOW,

		/** Refuses the caller with 403. */
		DENY

	}

	public AccessRule {
		if (access == Access.DENY && tier != null) {
			throw new IllegalArgumentException("a deny rule takes no tier");
		}
	}

	/**
	 * Parses a rule as written in {@code ratelimit.access.allow} or {@code deny}: a
	 * subject, for an allow rule optionally followed by {@code as <tier>}
	 * ({@code "user:partner-bot as partner"}).
	 * @param access allow or deny
	 * @param text the rule
	 * @return the rule, without expiry
	 * @throws IllegalArgumentException with the reason
	 */
	public static AccessRule parse(Access access, String text) {
		String trimmed = text.strip();
		int as = trimmed.lastIndexOf(" as ");
		if (as < 0) {
			return new AccessRule(access, Subject.parse(trimmed), null, null);
		}
		if (access == Access.DENY) {
			throw new IllegalArgumentException("a deny rule takes no tier ('as …' is for allow rules)");
		}
		String tier = trimmed.substring(as + 4).strip();
		if (tier.isEmpty()) {
			throw new IllegalArgumentException("'as' needs a tier name");
		}
		return new AccessRule(access, Subject.parse(trimmed.substring(0, as)), tier, null);
	}

	/** Whether the rule has ended at {@code nowMillis}. */
	public boolean expired(long nowMillis) {
		// saturated: an expiry beyond what milliseconds hold never comes (rather than
		// throwing)
		return this.expiresAt != null && ControlInput.epochMillis(this.expiresAt) <= nowMillis;
	}

	/** The rule as written: the subject and its tier ({@code user:bot as partner}). */
	public String spec() {
		return (this.tier != null) ? this.subject + " as " + this.tier : this.subject.toString();
	}

}
