package io.github.ratelimit.control;

import java.util.concurrent.CompletableFuture;

import org.jspecify.annotations.Nullable;

import io.github.ratelimit.policy.Dimension;

/**
 * Where runtime control lives, so that every instance applies the same overrides, rules and bans: in
 * memory for one instance, in Redis for all of them. Implementations are thread-safe. Reads and writes
 * are for operators and a background refresh, never on a request's way; only
 * {@link #recordRefusal} is called for requests, and it never blocks.
 */
public interface ControlStore {

	/** A number that changes whenever the state does: a refresh loads the state only when it moved. */
	long version();

	/** The whole state, without what has expired. */
	ControlState load();

	/** Sets an override, replacing one of the same dimension, id and group. */
	void putOverride(LimitOverride override);

	/** Deletes an override; answers whether there was one. */
	boolean deleteOverride(Dimension dimension, String id, String group);

	/** Sets an access rule, replacing one of the same subject. */
	void putRule(AccessRule rule);

	/** Deletes the runtime rule of a subject; answers whether there was one. */
	boolean deleteRule(Subject subject);

	/**
	 * Counts a refusal of a subject, and bans it when the rule says so.
	 * @param subject the ban subject ({@link Subject#banKey})
	 * @param rule when and for how long
	 * @return the new ban when this refusal started one, else {@code null}; failures complete it
	 * exceptionally
	 */
	CompletableFuture<@Nullable Ban> recordRefusal(String subject, BanRule rule);

	/**
	 * Ends a ban now; answers whether the subject was banned. Its offences are remembered as if the ban had
	 * run its course, so its next ban still lasts twice as long.
	 */
	boolean liftBan(String subject);

}
