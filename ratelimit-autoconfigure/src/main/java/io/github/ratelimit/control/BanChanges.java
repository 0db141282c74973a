package io.github.ratelimit.control;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * What changed in the bans since a reader's cursor, as a {@link ControlStore} reports it:
 * only what changed, so an instance never re-reads every ban to learn of one more.
 *
 * @param cursor where the reader's next read starts
 * @param resync whether {@code changes} holds every ban in force (started ones only) and
 * replaces what the reader holds: on its first read, or when it fell further behind than
 * the store remembers changes
 * @param changes in the order they happened
 */
public record BanChanges(String cursor, boolean resync, List<Change> changes) {

	public BanChanges {
		changes = List.copyOf(changes);
	}

	/**
	 * One change.
	 *
	 * @param subject whose ban changed
	 * @param started the ban that started, or {@code null} when the subject's ban was
	 * lifted
	 */
	public record Change(String subject, @Nullable Ban started) {

		/** A ban that started. */
		public static Change started(Ban ban) {
			return new Change(ban.subject(), ban);
		}

		/** A lifted ban. */
		public static Change lifted(String subject) {
			return new Change(subject, null);
		}

	}

}
