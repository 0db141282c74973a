package io.github.ratelimit.autoconfigure;

import org.springframework.context.SmartLifecycle;

/**
 * Background work of the limiter (the runtime control's refresh, the Redis store's
 * connection) as part of the context's lifecycle rather than of a bean method: nothing
 * runs while the context is only being built, it starts when the context starts, and it
 * stops when the context stops or closes (and can start again after a stop).
 * <p>
 * The {@linkplain #PHASE phase} puts the start before Boot's web server takes requests,
 * so the first request meets a store already connecting, and the stop after the web
 * server stopped taking them (and after a graceful shutdown's last requests). The stop
 * never waits for work under way, such as a connect to a Redis that does not answer.
 */
final class BackgroundWork implements SmartLifecycle {

	/**
	 * The phase: below Boot's web server
	 * ({@code WebServerApplicationContext.START_STOP_LIFECYCLE_PHASE},
	 * {@code DEFAULT_PHASE - 2048}) and its graceful shutdown
	 * ({@code DEFAULT_PHASE - 1024}), so this starts before both and stops after both;
	 * above Spring Data Redis's connection factory (phase 0), whose client resources the
	 * store's client shares.
	 */
	static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 2048 - 1024;

	private final Runnable start;

	private final Runnable stop;

	private volatile boolean running;

	BackgroundWork(Runnable start, Runnable stop) {
		this.start = start;
		this.stop = stop;
	}

	@Override
	public void start() {
		this.start.run();
		this.running = true;
	}

	@Override
	public void stop() {
		this.running = false;
		this.stop.run();
	}

	@Override
	public boolean isRunning() {
		return this.running;
	}

	/** Always: the work is part of every context the limiter runs in. */
	@Override
	public boolean isAutoStartup() {
		return true;
	}

	@Override
	public int getPhase() {
		return PHASE;
	}

}
