package io.github.ratelimit.control;

import java.time.Clock;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicLong;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The bans this instance holds, kept in step with the {@link ControlStore}: started by
 * refusals (the store counts them), followed from the store's changes, lifted by
 * operators. The request path reads one map entry without a lock; the refresh reads only
 * the bans that started or were lifted since its last read.
 */
final class BanKeeper {

	private static final Logger logger = LoggerFactory.getLogger(RuntimeControl.class);

	/** Ban changes read in one refresh at most, in the store's batches. */
	private static final int MAX_BAN_BATCHES_PER_REFRESH = 10;

	/** Failures to count a refusal are logged once in this interval at most. */
	private static final long REFUSAL_FAILURE_LOG_MILLIS = 60_000;

	private final ControlStore store;

	private final Clock clock;

	private final ActiveBans bans;

	private final BanLog banLog = new BanLog(LoggerFactory.getLogger(RuntimeControl.BANS_LOGGER));

	private final AtomicLong started = new AtomicLong();

	private final AtomicLong notStarted = new AtomicLong();

	private final AtomicLong nextRefusalFailureLog = new AtomicLong(Long.MIN_VALUE);

	private final Object reads = new Object();

	private @Nullable String cursor;

	BanKeeper(ControlStore store, Clock clock) {
		this.store = store;
		this.clock = clock;
		this.bans = new ActiveBans(store.maxActiveBans());
	}

	/** The ban in force under a key, or {@code null}. */
	@Nullable Ban get(String banKey) {
		return this.bans.isEmpty() ? null : this.bans.get(banKey, this.clock.millis());
	}

	/** Whether no ban is held (the request path then skips every lookup). */
	boolean isEmpty() {
		return this.bans.isEmpty();
	}

	/** The bans in force. */
	List<Ban> list() {
		return this.bans.list(this.clock.millis());
	}

	/** How many bans this instance started. */
	long started() {
		return this.started.get();
	}

	/**
	 * How many refusals would have started a ban but did not: max-active were in force.
	 */
	long notStarted() {
		return this.notStarted.get();
	}

	/** Counts a refusal towards a ban under a key. Never blocks. */
	void refused(String banKey, BanRule rule) {
		try {
			this.store.recordRefusal(banKey, rule).whenComplete((ban, failure) -> {
				if (failure != null) {
					refusalNotCounted(banKey, failure);
				}
				else if (ban != null) {
					banned(ban, rule);
				}
			});
		}
		catch (RuntimeException ex) {
			refusalNotCounted(banKey, ex);
		}
	}

	/**
	 * Lifts a ban in the store and on this instance at once; answers whether one was in
	 * force.
	 */
	boolean lift(String banKey) {
		boolean lifted = this.store.liftBan(banKey);
		lifted |= this.bans.remove(banKey, this.clock.millis());
		return lifted;
	}

	/**
	 * Applies the bans started and lifted since the last read: a bounded batch, not every
	 * ban.
	 */
	void readChanges() {
		synchronized (this.reads) {
			for (int i = 0; i < MAX_BAN_BATCHES_PER_REFRESH; i++) {
				String from = this.cursor;
				BanChanges changes = this.store.banChanges(from);
				long now = this.clock.millis();
				if (changes.resync()) {
					int dropped = this.bans.replaceWith(changes.changes()
						.stream()
						.map(BanChanges.Change::started)
						.filter((ban) -> ban != null)
						.toList(), now);
					if (dropped > 0) {
						logger.warn("{} bans in force did not fit in this instance's {} (ratelimit.bans.max-active)",
								dropped, this.store.maxActiveBans());
					}
				}
				else {
					for (BanChanges.Change change : changes.changes()) {
						Ban started = change.started();
						if (started != null) {
							this.bans.put(started, now);
						}
						else {
							this.bans.remove(change.subject(), now);
						}
					}
				}
				this.cursor = changes.cursor();
				if (changes.resync() || changes.changes().isEmpty() || changes.cursor().equals(from)) {
					return;
				}
			}
		}
	}

	/** Drops the bans that ended and writes what the ban log held back. */
	void sweep() {
		long now = this.clock.millis();
		this.bans.sweep(now);
		this.banLog.flush(now);
	}

	private void banned(Ban ban, BanRule rule) {
		this.started.incrementAndGet();
		long now = this.clock.millis();
		this.banLog.started(ban, rule, now);
		this.bans.put(ban, now);
	}

	private void refusalNotCounted(String banKey, Throwable failure) {
		Throwable cause = (failure instanceof CompletionException && failure.getCause() != null) ? failure.getCause()
				: failure;
		if (cause instanceof TooManyBansException full) {
			this.notStarted.incrementAndGet();
			this.banLog.notStarted(banKey, full.maxActive(), this.clock.millis());
			return;
		}
		// a store that refuses writes (Redis at maxmemory) starts no ban; bans in force
		// stay
		long now = this.clock.millis();
		long next = this.nextRefusalFailureLog.get();
		if (now >= next && this.nextRefusalFailureLog.compareAndSet(next, now + REFUSAL_FAILURE_LOG_MILLIS)) {
			logger.warn("Could not count refusals towards bans, so no new ban starts until the store takes writes "
					+ "again (bans in force stay): {}", cause.toString());
		}
		else {
			logger.debug("Could not count a refusal towards a ban: {}", cause.toString());
		}
	}

}
