package io.github.ratelimit.control;

import java.util.concurrent.CompletableFuture;

import org.jspecify.annotations.Nullable;

import io.github.ratelimit.policy.Dimension;

/**
 * Where runtime control lives, so that every instance applies the same overrides, rules
 * and bans: in memory for one instance, in Redis for all of them. Implementations are
 * thread-safe. Reads and writes are for operators and a background refresh, never on a
 * request's way; only {@link #recordRefusal} is called for requests, and it never blocks.
 * <p>
 * Overrides and rules are small and written by operators: a refresh reads them whole when
 * the version moves. Bans are started by callers' refusals, so they are bounded
 * ({@link #maxActiveBans()}) and travel by what changed ({@link #banChanges}); starting
 * or lifting one leaves the version alone.
 */
public interface ControlStore {

	/** The most bans in force at once by default. */
	int DEFAULT_MAX_ACTIVE_BANS = 100_000;

	/**
	 * A number that changes whenever the overrides or rules do: a refresh loads them only
	 * when it moved.
	 */
	long version();

	/** The overrides and rules, without what has expired. */
	ControlState load();

	/**
	 * The most bans in force at once: a refusal that would start one more starts none.
	 */
	int maxActiveBans();

	/**
	 * The ban changes after a cursor, a bounded batch of them; or, on the first read
	 * ({@code null}) and when the cursor is older than the changes the store remembers,
	 * every ban in force (at most {@link #maxActiveBans()}) as a resync.
	 * @param cursor the cursor of the last answer, or {@code null}
	 * @return the changes and the next cursor
	 */
	BanChanges banChanges(@Nullable String cursor);

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
	 * @return the new ban when this refusal started one, else {@code null}; failures
	 * complete it exceptionally, with {@link TooManyBansException} when the refusal would
	 * have started a ban but {@link #maxActiveBans()} are in force
	 */
	CompletableFuture<@Nullable Ban> recordRefusal(String subject, BanRule rule);

	/**
	 * Ends a ban now; answers whether the subject was banned. Its offences are remembered
	 * as if the ban had run its course, so its next ban still lasts twice as long.
	 */
	boolean liftBan(String subject);

}
