package io.github.ratelimit.client;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs what a caller should know: a WARN hint when a host shows few requests left (at
 * most once a minute per host, so a busy client does not flood its log), and waits and
 * give-ups at DEBUG.
 */
public final class LoggingClientEvents implements ClientEvents {

	/** The least time between two hints for one host. */
	public static final Duration HINT_INTERVAL = Duration.ofMinutes(1);

	/** The most hosts whose last hint is remembered (the oldest is dropped). */
	private static final int MAX_HOSTS = 1024;

	private static final Logger logger = LoggerFactory.getLogger(LoggingClientEvents.class);

	private final Clock clock;

	private final Logger log;

	private final Map<String, Instant> lastHints = new LinkedHashMap<>(16, 0.75f, true) {

		@Override
		protected boolean removeEldestEntry(Map.Entry<String, Instant> eldest) {
			return size() > MAX_HOSTS;
		}

	};

	/**
	 * Creates the events on the system clock.
	 */
	public LoggingClientEvents() {
		this(Clock.systemUTC());
	}

	/**
	 * Creates the events.
	 * @param clock the clock that spaces the hints
	 */
	public LoggingClientEvents(Clock clock) {
		this(clock, logger);
	}

	LoggingClientEvents(Clock clock, Logger log) {
		this.clock = clock;
		this.log = log;
	}

	@Override
	public void fewRemaining(String host, @Nullable String policy, long remaining, long limit) {
		if (!this.log.isWarnEnabled() || !due(host)) {
			return;
		}
		String of = (policy != null) ? " of policy '" + policy + "'" : "";
		this.log.warn("Rate limit nearly spent at {}: {} of {} requests left{}; slow down or spread the calls", host,
				remaining, limit, of);
	}

	@Override
	public void waited(String host, Duration wait, WaitReason reason) {
		if (this.log.isDebugEnabled()) {
			this.log.debug("Waiting {} ms before calling {} ({})", wait.toMillis(), host, reason);
		}
	}

	@Override
	public void gaveUp(String host, int status, GiveUpReason reason) {
		if (this.log.isDebugEnabled()) {
			this.log.debug("Gave up calling {} after status {} ({})", host, status, reason);
		}
	}

	private boolean due(String host) {
		Instant now = this.clock.instant();
		synchronized (this.lastHints) {
			Instant last = this.lastHints.get(host);
			if (last != null && now.isBefore(last.plus(HINT_INTERVAL))) {
				return false;
			}
			this.lastHints.put(host, now);
			return true;
		}
	}

}
