package io.github.ratelimit.reputation;

import java.io.IOException;
import java.io.Reader;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import io.github.ratelimit.identity.AddressBits;
import io.github.ratelimit.identity.LogSafe;

/**
 * One reputation list: its ranges in force, read from its source and refreshed on an
 * interval. A refresh that fails (the source cannot be read) or reads an empty, corrupt
 * or too large list keeps the ranges in force: a feed that breaks never lifts a deny list
 * and never replaces it with garbage. A list whose first read fails holds nothing until a
 * refresh succeeds.
 */
public final class ReputationList {

	private static final Logger logger = LoggerFactory.getLogger("io.github.ratelimit.reputation");

	private final String name;

	private final ListSource source;

	private final @Nullable String tier;

	private final Duration interval;

	private final int maxEntries;

	private final Clock clock;

	private final BadLineLog badLines;

	private volatile AddressRanges ranges = AddressRanges.EMPTY;

	private volatile @Nullable Instant loadedAt;

	private volatile long nextRefreshMillis = Long.MIN_VALUE;

	/**
	 * Creates a list; it holds nothing until {@link #refresh() refreshed}.
	 * @param name the list's name, for logs
	 * @param source where it is read from
	 * @param tier the tier its addresses are held to, or {@code null} for a deny list
	 * @param interval how often it is read again
	 * @param maxEntries the most ranges it may hold
	 * @param clock the clock of the interval
	 */
	public ReputationList(String name, ListSource source, @Nullable String tier, Duration interval, int maxEntries,
			Clock clock) {
		this.name = Objects.requireNonNull(name);
		this.source = Objects.requireNonNull(source);
		this.tier = tier;
		this.interval = interval;
		this.maxEntries = maxEntries;
		this.clock = clock;
		this.badLines = new BadLineLog(clock);
	}

	/** The list's name. */
	public String name() {
		return this.name;
	}

	/** The tier the list's addresses are held to, or {@code null} for a deny list. */
	public @Nullable String tier() {
		return this.tier;
	}

	/** Whether an address is on the list in force. */
	public boolean contains(AddressBits address) {
		return this.ranges.contains(address);
	}

	/** The merged intervals of the list in force. */
	public int intervals() {
		return this.ranges.intervals();
	}

	/** When the list in force was read, or {@code null} when none was yet. */
	public @Nullable Instant loadedAt() {
		return this.loadedAt;
	}

	/**
	 * Refreshes the list when its interval has passed since the last refresh (or none ran
	 * yet).
	 * @return what the refresh did, or {@code null} when none was due
	 */
	public @Nullable RefreshResult refreshIfDue() {
		if (this.clock.millis() < this.nextRefreshMillis) {
			return null;
		}
		return refresh();
	}

	/**
	 * Reads the list now; the next refresh is due one interval later, whatever the
	 * result.
	 * @return what the refresh did
	 */
	public synchronized RefreshResult refresh() {
		this.nextRefreshMillis = this.clock.millis() + this.interval.toMillis();
		CidrLines.Parsed parsed;
		try (Reader reader = this.source.open()) {
			parsed = CidrLines.read(reader, this.maxEntries);
		}
		catch (IOException | RuntimeException ex) {
			logger.warn("Reputation list '{}' could not be read from {} ({}); keeping the last good list ({} ranges)",
					this.name, LogSafe.escape(this.source.location()), LogSafe.escape(String.valueOf(ex)),
					this.ranges.intervals());
			return RefreshResult.FAILED;
		}
		this.badLines.report(this.name, this.source.location(), parsed.badLines());
		String rejection = parsed.rejection(this.maxEntries);
		if (rejection != null) {
			logger.warn("Reputation list '{}' read from {} is refused: {}; keeping the last good list ({} ranges)",
					this.name, LogSafe.escape(this.source.location()), rejection, this.ranges.intervals());
			return RefreshResult.REJECTED;
		}
		this.ranges = AddressRanges.of(parsed.ranges());
		this.loadedAt = this.clock.instant();
		logger.debug("Reputation list '{}' loaded: {} ranges", this.name, parsed.ranges().size());
		return RefreshResult.LOADED;
	}

}
