package io.github.ratelimit.client;

import java.net.URI;
import java.time.Clock;
import java.util.concurrent.ThreadLocalRandom;
import java.util.random.RandomGenerator;

/**
 * The calling side's rate-limit logic, shared by every call of an application: which
 * requests to retry and after how long, pacing holds while a host's policy is exhausted,
 * and a breaker per host. Thread-safe. HTTP library adapters start a {@link ClientCall}
 * per logical call and ask it before each attempt and after each response.
 * <p>
 * Pacing and breaker state is kept per host ({@code host[:port]}), for at most
 * {@value #MAX_HOSTS} hosts (the least recently used is dropped).
 */
public final class RateLimitClient {

	/** The most hosts whose holds and breakers are remembered. */
	public static final int MAX_HOSTS = 1024;

	private final ClientRetrySettings settings;

	private final Clock clock;

	private final RandomGenerator random;

	private final ClientEvents events;

	/**
	 * Creates a client.
	 * @param settings how to retry, pace and break
	 * @param clock the clock of holds, breakers and HTTP dates
	 * @param random the source of jitter; shared by every thread that uses this client,
	 * so thread-safe (such as {@link java.util.Random}, seeded in tests)
	 * @param events what to report to
	 */
	public RateLimitClient(ClientRetrySettings settings, Clock clock, RandomGenerator random, ClientEvents events) {
		this.settings = settings;
		this.clock = clock;
		this.random = random;
		this.events = events;
	}

	/**
	 * Creates a client on the system clock, with {@link ThreadLocalRandom} jitter and no
	 * events.
	 * @param settings how to retry, pace and break
	 */
	public RateLimitClient(ClientRetrySettings settings) {
		this(settings, Clock.systemUTC(), () -> ThreadLocalRandom.current().nextLong(), ClientEvents.NONE);
	}

	/**
	 * Starts a logical call: one request, sent once or retried.
	 * @param method the HTTP method ({@code GET}, {@code POST}, ...)
	 * @param uri the request URI (absolute; its host and port name the host)
	 * @param idempotencyKey whether the request carries an {@code Idempotency-Key}
	 * header, which makes any method safe to retry
	 * @return the call
	 */
	public ClientCall start(String method, URI uri, boolean idempotencyKey) {
		return new ClientCall(this, method, uri, idempotencyKey);
	}

	/**
	 * The settings.
	 * @return the settings
	 */
	public ClientRetrySettings settings() {
		return this.settings;
	}

}
