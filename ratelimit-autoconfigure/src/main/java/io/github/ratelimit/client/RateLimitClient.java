package io.github.ratelimit.client;

import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ThreadLocalRandom;
import java.util.random.RandomGenerator;

import org.jspecify.annotations.Nullable;

/**
 * The calling side's rate-limit logic, shared by every call of an application: which
 * requests to retry and after how long, pacing holds while a host's policy is exhausted,
 * and a breaker per host. Thread-safe. HTTP library adapters start a {@link ClientCall}
 * per logical call and ask it before each attempt and after each response.
 * <p>
 * Pacing: a response that shows a policy exhausted (IETF {@code r=0}, a {@code Remaining}
 * of 0, or a 429) holds the next requests to its host until the server's wait is over or
 * a response shows that policy with quota again. Breaker: {@code breaker-threshold}
 * consecutive 429s from a host open its breaker for {@code breaker-open-for} (or the
 * server's wait if longer); while it is open, calls throw {@link RateLimitedException}
 * without sending, and any response but a 429 or 503 closes it.
 * <p>
 * State is kept per host ({@code host[:port]}), for at most {@value #MAX_HOSTS} hosts
 * (the least recently used is dropped).
 */
public final class RateLimitClient {

	/** The most hosts whose holds and breakers are remembered. */
	public static final int MAX_HOSTS = 1024;

	private static final int TOO_MANY_REQUESTS = 429;

	private static final int SERVICE_UNAVAILABLE = 503;

	private final ClientRetrySettings settings;

	private final Clock clock;

	private final RandomGenerator random;

	private final ClientEvents events;

	private final HostStates hosts = new HostStates(MAX_HOSTS);

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

	Clock clock() {
		return this.clock;
	}

	ClientEvents events() {
		return this.events;
	}

	HostStates hosts() {
		return this.hosts;
	}

	/**
	 * Records what a response says about its host.
	 * @return the host's state, or {@code null} when nothing is remembered of it
	 */
	@Nullable HostState observe(String host, String route, RateLimitSignals signals, Instant now) {
		int status = signals.status();
		boolean refused = status == TOO_MANY_REQUESTS;
		Duration hint = signals.waitHint();
		boolean hold = this.settings.pacing() && hint != null && (refused || signals.exhausted());
		HostState state = (refused || hold) ? this.hosts.get(host) : this.hosts.find(host);
		String policy = (signals.policy() != null) ? signals.policy() : HostState.UNNAMED;
		if (state != null) {
			if (signals.policy() != null) {
				state.answeredUnder(route, policy);
			}
			if (hold) {
				state.hold(policy, now.plus(hint));
			}
			else if (signals.remaining() != null && signals.remaining() > 0) {
				state.release(policy);
			}
			if (refused) {
				state.refused(now, this.settings.breakerThreshold(), this.settings.breakerOpenFor(), hint);
			}
			else if (status != SERVICE_UNAVAILABLE) {
				state.answered();
			}
			else {
				state.untested();
			}
		}
		fewRemaining(host, signals);
		return state;
	}

	private void fewRemaining(String host, RateLimitSignals signals) {
		Long limit = signals.limit();
		Long remaining = signals.remaining();
		int percent = this.settings.warnRemainingPercent();
		if (percent > 0 && limit != null && remaining != null && limit > 0 && remaining * 100 <= limit * percent) {
			this.events.fewRemaining(host, signals.policy(), remaining, limit);
		}
	}

	/** A uniform random share of the jitter, so clients refused together spread out. */
	Duration jitter() {
		long millis = this.settings.jitter().toMillis();
		return (millis > 0) ? Duration.ofMillis(this.random.nextLong(millis + 1)) : Duration.ZERO;
	}

	/**
	 * Capped exponential backoff with full jitter: a uniform random wait up to
	 * {@code initial-backoff} doubled per earlier attempt, capped by {@code max-delay}.
	 * @param attempts the requests sent so far
	 */
	Duration backoff(int attempts) {
		long cap = Math.max(1, this.settings.initialBackoff().toMillis());
		long max = this.settings.maxDelay().toMillis();
		for (int i = 1; i < attempts && cap < max; i++) {
			cap *= 2;
		}
		return Duration.ofMillis(this.random.nextLong(Math.min(cap, max) + 1));
	}

}
