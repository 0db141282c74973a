package io.github.ratelimit.autoconfigure;

import org.springframework.context.SmartLifecycle;

/**
 * Background work of the limiter (the runtime control's refresh, the Redis store's
 * connect) as part of the context's lifecycle rather than of a bean method: started
 * before the web server takes requests, stopped after it stopped taking them (and after a
 * graceful shutdown's last requests).
 */
final class BackgroundWork implements SmartLifecycle {

	/**
	 * Before Boot's web server
	 * ({@code WebServerApplicationContext.START_STOP_LIFECYCLE_PHASE}, the largest int
	 * less 2048), so a request never meets work that has not started.
	 */
	static final int PHASE = Integer.MAX_VALUE - 2048 - 1024;

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

	@Override
	public int getPhase() {
		return PHASE;
	}

}
