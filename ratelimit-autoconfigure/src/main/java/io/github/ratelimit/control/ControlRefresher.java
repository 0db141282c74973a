package io.github.ratelimit.control;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps an instance in step with the {@link ControlStore}: every {@code interval} a
 * background thread asks whether the overrides and rules changed (and loads them if so)
 * and reads the ban changes. When the store cannot be read, what was read last stays in
 * force, and that is said once, not every interval.
 */
final class ControlRefresher implements AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(RuntimeControl.class);

	private final ControlStore store;

	private final OverridesAndRules state;

	private final BanKeeper bans;

	private final Duration interval;

	private final AtomicLong failedRefreshes = new AtomicLong();

	private final AtomicLong failedBanReads = new AtomicLong();

	private volatile @Nullable ScheduledExecutorService executor;

	ControlRefresher(ControlStore store, OverridesAndRules state, BanKeeper bans, Duration interval) {
		this.store = store;
		this.state = state;
		this.bans = bans;
		this.interval = interval;
	}

	/**
	 * Refreshes from now on, in the background, the first time at once: a store that is
	 * down (or slow to connect) delays neither the start nor a request.
	 */
	synchronized void start() {
		if (this.executor != null) {
			return;
		}
		ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor((task) -> {
			Thread thread = new Thread(task, "ratelimit-control-refresh");
			thread.setDaemon(true);
			return thread;
		});
		long millis = Math.max(1, this.interval.toMillis());
		executor.scheduleWithFixedDelay(this::refreshIfChanged, 0, millis, TimeUnit.MILLISECONDS);
		this.executor = executor;
	}

	@Override
	public synchronized void close() {
		ScheduledExecutorService executor = this.executor;
		if (executor != null) {
			// first, so that a read the shutdown interrupts is not reported as a store
			// failure
			this.executor = null;
			executor.shutdownNow();
		}
	}

	/** Loads the state from the store now, and the ban changes since the last read. */
	void refresh() {
		long version = this.store.version();
		this.state.install(version, this.store.load());
		this.bans.readChanges();
		this.bans.sweep();
	}

	/** Refreshes after a write, so that it applies at once on this instance. */
	void refreshQuietly() {
		try {
			refresh();
		}
		catch (RuntimeException ex) {
			logger.warn("Could not read the rate-limit runtime control state: {}", ex.toString());
		}
	}

	private void refreshIfChanged() {
		try {
			if (this.store.version() != this.state.version()) {
				long version = this.store.version();
				this.state.install(version, this.store.load());
			}
			this.failedRefreshes.set(0);
		}
		catch (RuntimeException ex) {
			if (this.failedRefreshes.getAndIncrement() == 0) {
				logger.warn("Could not read the rate-limit runtime control state (overrides, rules); the "
						+ "last one read stays in force until the store answers: {}", ex.toString());
			}
		}
		try {
			this.bans.readChanges();
			this.failedBanReads.set(0);
		}
		catch (RuntimeException ex) {
			if (this.executor != null && this.failedBanReads.getAndIncrement() == 0) {
				logger.warn("Could not read the rate-limit ban changes; the bans held stay in force until the store "
						+ "answers: {}", ex.toString());
			}
		}
		this.bans.sweep();
	}

}
