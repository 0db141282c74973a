package io.github.ratelimit.control;

import java.util.concurrent.atomic.AtomicLong;

import org.slf4j.Logger;

import io.github.ratelimit.identity.LogSafe;

/**
 * The WARN lines of bans, at most one a second: a flood of bans (one per rotated address)
 * writes one line and counts the others into the next ("N more bans since the last
 * line"), written with the next ban or the next refresh. Subjects are escaped: a user
 * name from a token may hold line breaks that would otherwise forge log lines.
 */
final class BanLog {

	private static final long INTERVAL_MILLIS = 1000;

	private final Logger logger;

	private final AtomicLong nextLineAt = new AtomicLong(Long.MIN_VALUE);

	private final AtomicLong unloggedBans = new AtomicLong();

	private final AtomicLong unloggedSkips = new AtomicLong();

	BanLog(Logger logger) {
		this.logger = logger;
	}

	/** A ban started on this instance. */
	void started(Ban ban, BanRule rule, long now) {
		if (!claim(now)) {
			this.unloggedBans.incrementAndGet();
			return;
		}
		String subject = LogSafe.escape(ban.subject());
		this.logger.warn(
				"Banned {} until {} (ban {} of this subject; {} refusals within {}); lift it with DELETE "
						+ "/actuator/ratelimits/bans?subject={}{}",
				subject, ban.until(), ban.offence(), rule.refusals(), rule.window(), subject, since());
	}

	/**
	 * A refusal that would have started a ban started none: {@code maxActive} bans are in
	 * force.
	 */
	void notStarted(String subject, int maxActive, long now) {
		if (!claim(now)) {
			this.unloggedSkips.incrementAndGet();
			return;
		}
		this.logger.warn("Did not ban {}: {} bans are in force, the most ratelimit.bans.max-active allows; it is "
				+ "still rate-limited{}", LogSafe.escape(subject), maxActive, since());
	}

	/** Writes what the last lines left out, once the interval allows a line. */
	void flush(long now) {
		if ((this.unloggedBans.get() > 0 || this.unloggedSkips.get() > 0) && claim(now)) {
			String since = since();
			if (!since.isEmpty()) {
				this.logger.warn("Bans since the last line{}", since);
			}
		}
	}

	private boolean claim(long now) {
		long next = this.nextLineAt.get();
		return now >= next && this.nextLineAt.compareAndSet(next, now + INTERVAL_MILLIS);
	}

	private String since() {
		long bans = this.unloggedBans.getAndSet(0);
		long skips = this.unloggedSkips.getAndSet(0);
		StringBuilder more = new StringBuilder();
		if (bans > 0) {
			more.append("; ").append(bans).append(" more bans since the last line");
		}
		if (skips > 0) {
			more.append("; ").append(skips).append(" more refusals started no ban (max-active reached)");
		}
		return more.toString();
	}

}
