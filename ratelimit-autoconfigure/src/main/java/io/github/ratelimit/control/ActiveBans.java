package io.github.ratelimit.control;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import org.jspecify.annotations.Nullable;

/**
 * The bans in force on this instance, at most {@code maxSize} of them. The request path
 * reads one map entry, without a lock and without a copy: starting, lifting or syncing a
 * ban changes one entry at a time. Ended bans go when a lookup meets them and with the
 * refresh's sweep.
 */
final class ActiveBans {

	private final Map<String, Ban> bans = new ConcurrentHashMap<>();

	private final int maxSize;

	private final AtomicLong nextFullSweep = new AtomicLong(Long.MIN_VALUE);

	ActiveBans(int maxSize) {
		this.maxSize = maxSize;
	}

	/** The ban in force on a subject at {@code now}, or {@code null}. */
	@Nullable Ban get(String subject, long now) {
		Ban ban = this.bans.get(subject);
		if (ban == null) {
			return null;
		}
		if (!ban.active(now)) {
			this.bans.remove(subject, ban);
			return null;
		}
		return ban;
	}

	boolean isEmpty() {
		return this.bans.isEmpty();
	}

	int size() {
		return this.bans.size();
	}

	/**
	 * Holds a ban; answers false when it is over or {@code maxSize} others are in force.
	 */
	boolean put(Ban ban, long now) {
		if (!ban.active(now)) {
			this.bans.remove(ban.subject());
			return false;
		}
		if (this.bans.size() >= this.maxSize && !this.bans.containsKey(ban.subject())) {
			// full: look for ended bans once a second at most, not at every ban that does
			// not fit
			long next = this.nextFullSweep.get();
			if (now >= next && this.nextFullSweep.compareAndSet(next, now + 1000)) {
				sweep(now);
			}
			if (this.bans.size() >= this.maxSize) {
				return false;
			}
		}
		this.bans.put(ban.subject(), ban);
		return true;
	}

	/** Drops a subject's ban; answers whether one was in force. */
	boolean remove(String subject, long now) {
		Ban removed = this.bans.remove(subject);
		return removed != null && removed.active(now);
	}

	/**
	 * Replaces every ban with {@code current}: the new ones go in before the others go,
	 * so a ban in force in both never lapses on the way. Answers how many did not fit.
	 */
	int replaceWith(List<Ban> current, long now) {
		Set<String> subjects = new HashSet<>();
		int dropped = 0;
		for (Ban ban : current) {
			subjects.add(ban.subject());
			if (ban.active(now) && !put(ban, now)) {
				dropped++;
			}
		}
		this.bans.keySet().retainAll(subjects);
		return dropped;
	}

	/** Drops the bans that ended. */
	void sweep(long now) {
		this.bans.values().removeIf((ban) -> !ban.active(now));
	}

	/** The bans in force. */
	List<Ban> list(long now) {
		return this.bans.values().stream().filter((ban) -> ban.active(now)).toList();
	}

}
