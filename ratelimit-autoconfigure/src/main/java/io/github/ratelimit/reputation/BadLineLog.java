package io.github.ratelimit.reputation;

import java.time.Clock;
import java.time.Duration;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.ratelimit.identity.LogSafe;

/**
 * Reports the bad lines of a list, rate-limited: each refresh with bad lines writes one
 * WARN line with their count and the first of them (line number and reason); the lines
 * themselves at most once per {@link #DETAIL_PERIOD} per list, so a list with a permanent
 * typo refreshed every minute does not flood the log.
 */
final class BadLineLog {

	/** How often a list's bad lines are listed one by one. */
	static final Duration DETAIL_PERIOD = Duration.ofHours(1);

	/** The most bad lines listed in one report. */
	static final int MAX_DETAILS = 5;

	private static final Logger logger = LoggerFactory.getLogger("io.github.ratelimit.reputation");

	private final Clock clock;

	private long nextDetailMillis = Long.MIN_VALUE;

	BadLineLog(Clock clock) {
		this.clock = clock;
	}

	/**
	 * Reports the bad lines of one read of a list.
	 * @return whether the lines were listed one by one (else only counted)
	 */
	synchronized boolean report(String list, String location, List<CidrLines.BadLine> badLines) {
		if (badLines.isEmpty()) {
			return false;
		}
		long now = this.clock.millis();
		boolean details = now >= this.nextDetailMillis;
		if (!details) {
			logger.warn("Reputation list '{}' ({}): {} bad lines skipped", list, LogSafe.escape(location),
					badLines.size());
			return false;
		}
		this.nextDetailMillis = now + DETAIL_PERIOD.toMillis();
		StringBuilder lines = new StringBuilder();
		for (CidrLines.BadLine bad : badLines.subList(0, Math.min(MAX_DETAILS, badLines.size()))) {
			lines.append("; line ").append(bad.number()).append(": ").append(LogSafe.escape(bad.reason()));
		}
		int more = badLines.size() - MAX_DETAILS;
		logger.warn("Reputation list '{}' ({}): {} bad lines skipped{}{}", list, LogSafe.escape(location),
				badLines.size(), lines, (more > 0) ? "; " + more + " more" : "");
		return true;
	}

}
