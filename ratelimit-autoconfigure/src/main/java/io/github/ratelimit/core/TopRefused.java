package io.github.ratelimit.core;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who is refused most, in bounded memory: a space-saving summary (Metwally et al.) of at
 * most {@code capacity} callers per period. A caller that is refused often is counted
 * exactly once it is tracked; a newcomer takes the place of the least refused one and
 * inherits its count as a possible over-count ({@link Entry#error()}), so any caller
 * refused more than {@code total / capacity} times in a period is in the list. Two
 * periods are kept: the current one and the last complete one.
 * <p>
 * Callers are named as bans name them ({@code user:<name>}, {@code key:<token id>},
 * {@code ip:<client address>}): never a raw credential.
 */
public final class TopRefused {

	private static final Logger logger = LoggerFactory.getLogger(RejectionLogger.REJECTIONS_LOGGER);

	/** How many callers the log line of a period names. */
	private static final int SUMMARY_SIZE = 10;

	/** How many callers a period tracks by default. */
	public static final int DEFAULT_CAPACITY = 100;

	/** The length of a period by default. */
	public static final java.time.Duration DEFAULT_PERIOD = java.time.Duration.ofMinutes(5);

	private final int capacity;

	private final long periodMillis;

	private final java.time.Clock clock;

	private Map<String, long[]> current = new HashMap<>();

	private long currentStart;

	private long currentTotal;

	private List<Entry> last = List.of();

	private long lastTotal;

	/**
	 * Creates a summary.
	 * @param capacity the most callers a period tracks
	 * @param period the length of a period
	 * @param clock the clock of periods
	 */
	public TopRefused(int capacity, java.time.Duration period, java.time.Clock clock) {
		if (capacity < 1) {
			throw new IllegalArgumentException("capacity must be at least 1");
		}
		this.capacity = capacity;
		this.periodMillis = Math.max(1, period.toMillis());
		this.clock = clock;
		this.currentStart = clock.millis();
	}

	/** Counts a refusal of a caller. */
	public void record(String caller) {
		String summary;
		synchronized (this) {
			summary = roll(this.clock.millis());
			count(caller);
		}
		log(summary);
	}

	// ends the current period if it is over and logs its summary: at the first refusal or
	// read after its end
	private void advance() {
		String summary;
		synchronized (this) {
			summary = roll(this.clock.millis());
		}
		log(summary);
	}

	private static void log(@Nullable String summary) {
		if (summary != null) {
			logger.info(summary);
		}
	}

	private void count(String caller) {
		this.currentTotal++;
		long[] counts = this.current.get(caller);
		if (counts != null) {
			counts[0]++;
			return;
		}
		if (this.current.size() < this.capacity) {
			this.current.put(caller, new long[] { 1, 0 });
			return;
		}
		// full: the least refused caller makes room, its count becomes the newcomer's
		// possible over-count
		String least = null;
		long min = Long.MAX_VALUE;
		for (Map.Entry<String, long[]> entry : this.current.entrySet()) {
			if (entry.getValue()[0] < min) {
				min = entry.getValue()[0];
				least = entry.getKey();
			}
		}
		this.current.remove(least);
		this.current.put(caller, new long[] { min + 1, min });
	}

	/**
	 * The most refused callers of the current period, most refused first, at most
	 * {@code limit}.
	 */
	public List<Entry> current(int limit) {
		advance();
		synchronized (this) {
			return top(this.current, limit);
		}
	}

	/**
	 * The most refused callers of the last complete period, most refused first, at most
	 * {@code limit}.
	 */
	public List<Entry> last(int limit) {
		advance();
		synchronized (this) {
			return this.last.subList(0, Math.min(limit, this.last.size()));
		}
	}

	/** Refusals counted in the last complete period. */
	public long lastTotal() {
		advance();
		synchronized (this) {
			return this.lastTotal;
		}
	}

	/** Refusals counted in the current period. */
	public long currentTotal() {
		advance();
		synchronized (this) {
			return this.currentTotal;
		}
	}

	/** The length of a period. */
	public java.time.Duration period() {
		return java.time.Duration.ofMillis(this.periodMillis);
	}

	// starts a new period when the current one is over; answers the summary of the one
	// that ended, if any
	private @Nullable String roll(long now) {
		if (now - this.currentStart < this.periodMillis) {
			return null;
		}
		List<Entry> ended = top(this.current, this.capacity);
		long endedTotal = this.currentTotal;
		boolean adjacent = now - this.currentStart < 2 * this.periodMillis;
		this.last = adjacent ? ended : List.of();
		this.lastTotal = adjacent ? endedTotal : 0;
		this.current = new HashMap<>();
		this.currentTotal = 0;
		this.currentStart = now - (now - this.currentStart) % this.periodMillis;
		if (endedTotal == 0) {
			return null;
		}
		StringBuilder summary = new StringBuilder(256).append("rate limit top refused callers: ")
			.append(endedTotal)
			.append(" refusals in ")
			.append(java.time.Duration.ofMillis(this.periodMillis))
			.append(';');
		for (Entry entry : ended.subList(0, Math.min(SUMMARY_SIZE, ended.size()))) {
			summary.append(' ').append(entry.caller()).append('=').append(entry.refusals());
		}
		return summary.toString();
	}

	private static List<Entry> top(Map<String, long[]> counts, int limit) {
		List<Entry> entries = new ArrayList<>(counts.size());
		counts.forEach((caller, count) -> entries.add(new Entry(caller, count[0], count[1])));
		entries.sort(Comparator.comparingLong(Entry::refusals).reversed().thenComparing(Entry::caller));
		return List.copyOf(entries.subList(0, Math.min(limit, entries.size())));
	}

	/**
	 * A caller and its refusals in a period.
	 *
	 * @param caller who ({@code ip:203.0.113.7}, {@code user:alice}, {@code key:t-…})
	 * @param refusals its refusals, over-counted by at most {@code error}
	 * @param error the most {@code refusals} may over-count (0: exact)
	 */
	public record Entry(String caller, long refusals, long error) {
	}

}
