package io.github.ratelimit.client;

import java.time.Duration;

/**
 * How {@link RateLimitClientHttpRequestInterceptor} waits before an attempt: the calling
 * thread sleeps ({@link #threadSleep()}); tests record the waits instead.
 */
@FunctionalInterface
public interface Sleeper {

	/**
	 * Waits.
	 * @param duration how long, positive
	 * @throws InterruptedException when the thread is interrupted while waiting
	 */
	void sleep(Duration duration) throws InterruptedException;

	/**
	 * Returns the sleeper that puts the calling thread to sleep.
	 * @return the sleeper
	 */
	static Sleeper threadSleep() {
		// Thread.sleep(Duration) is Java 19's
		return (duration) -> Thread.sleep(duration.toMillis(), duration.toNanosPart() % 1_000_000);
	}

}
