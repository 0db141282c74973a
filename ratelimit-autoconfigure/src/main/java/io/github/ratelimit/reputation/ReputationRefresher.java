package io.github.ratelimit.reputation;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

/**
 * Keeps the reputation lists fresh: reads every list once when started, so that a deny
 * list is in force from the first request, then looks every {@code tick} for lists whose
 * interval has passed ({@link ReputationLists#refreshDue()}, which reads the lists'
 * clock: a test drives it without this thread).
 */
public final class ReputationRefresher implements AutoCloseable {

	private final ReputationLists lists;

	private final Duration tick;

	private volatile @Nullable ScheduledExecutorService executor;

	/**
	 * Creates a refresher.
	 * @param lists the lists
	 * @param tick how often to look for lists due
	 */
	public ReputationRefresher(ReputationLists lists, Duration tick) {
		this.lists = lists;
		this.tick = tick;
	}

	/** Reads every list now, then refreshes them in the background. */
	public synchronized void start() {
		if (this.executor != null) {
			return;
		}
		this.lists.refreshDue();
		ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor((task) -> {
			Thread thread = new Thread(task, "ratelimit-reputation-refresh");
			thread.setDaemon(true);
			return thread;
		});
		long millis = Math.max(1, this.tick.toMillis());
		executor.scheduleWithFixedDelay(this.lists::refreshDue, millis, millis, TimeUnit.MILLISECONDS);
		this.executor = executor;
	}

	@Override
	public synchronized void close() {
		ScheduledExecutorService executor = this.executor;
		if (executor != null) {
			this.executor = null;
			executor.shutdownNow();
		}
	}

	/**
	 * How often to look for lists due: a tenth of the shortest interval, from one second
	 * to one minute.
	 * @param shortest the shortest refresh interval of the lists
	 * @return the tick
	 */
	public static Duration tickFor(Duration shortest) {
		long millis = shortest.toMillis() / 10;
		return Duration.ofMillis(Math.max(1000, Math.min(60_000, millis)));
	}

}
