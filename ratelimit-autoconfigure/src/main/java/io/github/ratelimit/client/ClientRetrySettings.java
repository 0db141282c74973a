package io.github.ratelimit.client;

import java.time.Duration;

import io.github.ratelimit.policy.InvalidRateLimitConfigurationException;

/**
 * How a {@link RateLimitClient} retries, paces and breaks. Each component mirrors a
 * {@code ratelimit.client.*} property; invalid values fail with an
 * {@link InvalidRateLimitConfigurationException} that names that property.
 *
 * @param maxAttempts the most requests one call sends, the first included (at least 1; 1
 * never retries)
 * @param maxDelay the cap of any one wait; a server that asks for a longer one is not
 * waited for, the call gives up at once
 * @param maxTotalWait the budget of all waits of one call (pacing holds and retries)
 * @param initialBackoff the first backoff when a refusal says nothing about when to
 * retry; it doubles with each retry (capped by {@code maxDelay}) and each wait is a
 * uniform random share of it (full jitter)
 * @param jitter the most a wait the server gave ({@code Retry-After}, a reset) is
 * extended by, a uniform random share of it, so that clients refused together do not
 * retry together
 * @param pacing whether a response that shows a policy exhausted holds the next requests
 * to that host until it frees
 * @param breakerThreshold how many consecutive 429s from one host open its breaker (0
 * never opens it)
 * @param breakerOpenFor how long an open breaker refuses to send, or the server's wait
 * when that is longer
 * @param warnRemainingPercent the share of a limit (0-100) at or below which a response
 * is reported as having few requests left (0 never reports)
 */
public record ClientRetrySettings(int maxAttempts, Duration maxDelay, Duration maxTotalWait, Duration initialBackoff,
		Duration jitter, boolean pacing, int breakerThreshold, Duration breakerOpenFor, int warnRemainingPercent) {

	/**
	 * The defaults: 4 attempts, waits of at most 30 s and 2 min in all, a 500 ms initial
	 * backoff, 1 s of jitter, pacing on, a breaker after 5 consecutive 429s open for 30
	 * s, a hint when at most 10% is left.
	 */
	public static final ClientRetrySettings DEFAULTS = new ClientRetrySettings(4, Duration.ofSeconds(30),
			Duration.ofMinutes(2), Duration.ofMillis(500), Duration.ofSeconds(1), true, 5, Duration.ofSeconds(30), 10);

	private static final String PREFIX = "ratelimit.client.";

	/**
	 * Checks the settings.
	 * @throws InvalidRateLimitConfigurationException naming the property of a value that
	 * cannot work
	 */
	public ClientRetrySettings {
		if (maxAttempts < 1) {
			throw invalid("max-attempts", maxAttempts, "at least one attempt is needed", "4");
		}
		positive("max-delay", maxDelay, "30s");
		positive("max-total-wait", maxTotalWait, "2m");
		positive("initial-backoff", initialBackoff, "500ms");
		notNegative("jitter", jitter, "1s");
		notNegative("breaker-open-for", breakerOpenFor, "30s");
		if (breakerThreshold < 0) {
			throw invalid("breaker-threshold", breakerThreshold, "must not be negative (0 turns the breaker off)", "5");
		}
		if (warnRemainingPercent < 0 || warnRemainingPercent > 100) {
			throw invalid("warn-remaining-percent", warnRemainingPercent,
					"must be a share between 0 and 100 (0 turns the hint off)", "10");
		}
	}

	/**
	 * Returns these settings with another number of attempts.
	 * @param maxAttempts the most requests one call sends, the first included
	 * @return the settings
	 */
	public ClientRetrySettings withMaxAttempts(int maxAttempts) {
		return new ClientRetrySettings(maxAttempts, this.maxDelay, this.maxTotalWait, this.initialBackoff, this.jitter,
				this.pacing, this.breakerThreshold, this.breakerOpenFor, this.warnRemainingPercent);
	}

	/**
	 * Returns these settings with another cap of one wait.
	 * @param maxDelay the cap of any one wait
	 * @return the settings
	 */
	public ClientRetrySettings withMaxDelay(Duration maxDelay) {
		return new ClientRetrySettings(this.maxAttempts, maxDelay, this.maxTotalWait, this.initialBackoff, this.jitter,
				this.pacing, this.breakerThreshold, this.breakerOpenFor, this.warnRemainingPercent);
	}

	/**
	 * Returns these settings with another budget of all waits of one call.
	 * @param maxTotalWait the budget
	 * @return the settings
	 */
	public ClientRetrySettings withMaxTotalWait(Duration maxTotalWait) {
		return new ClientRetrySettings(this.maxAttempts, this.maxDelay, maxTotalWait, this.initialBackoff, this.jitter,
				this.pacing, this.breakerThreshold, this.breakerOpenFor, this.warnRemainingPercent);
	}

	/**
	 * Returns these settings with another initial backoff.
	 * @param initialBackoff the first backoff when a refusal says nothing
	 * @return the settings
	 */
	public ClientRetrySettings withInitialBackoff(Duration initialBackoff) {
		return new ClientRetrySettings(this.maxAttempts, this.maxDelay, this.maxTotalWait, initialBackoff, this.jitter,
				this.pacing, this.breakerThreshold, this.breakerOpenFor, this.warnRemainingPercent);
	}

	/**
	 * Returns these settings with another jitter.
	 * @param jitter the most a server-given wait is extended by
	 * @return the settings
	 */
	public ClientRetrySettings withJitter(Duration jitter) {
		return new ClientRetrySettings(this.maxAttempts, this.maxDelay, this.maxTotalWait, this.initialBackoff, jitter,
				this.pacing, this.breakerThreshold, this.breakerOpenFor, this.warnRemainingPercent);
	}

	/**
	 * Returns these settings with pacing on or off.
	 * @param pacing whether an exhausted policy holds the next requests to its host
	 * @return the settings
	 */
	public ClientRetrySettings withPacing(boolean pacing) {
		return new ClientRetrySettings(this.maxAttempts, this.maxDelay, this.maxTotalWait, this.initialBackoff,
				this.jitter, pacing, this.breakerThreshold, this.breakerOpenFor, this.warnRemainingPercent);
	}

	/**
	 * Returns these settings with another breaker.
	 * @param breakerThreshold how many consecutive 429s open a host's breaker (0 never)
	 * @param breakerOpenFor how long it stays open at least
	 * @return the settings
	 */
	public ClientRetrySettings withBreaker(int breakerThreshold, Duration breakerOpenFor) {
		return new ClientRetrySettings(this.maxAttempts, this.maxDelay, this.maxTotalWait, this.initialBackoff,
				this.jitter, this.pacing, breakerThreshold, breakerOpenFor, this.warnRemainingPercent);
	}

	/**
	 * Returns these settings with another threshold of the few-remaining hint.
	 * @param warnRemainingPercent the share of a limit (0-100) at or below which to
	 * report
	 * @return the settings
	 */
	public ClientRetrySettings withWarnRemainingPercent(int warnRemainingPercent) {
		return new ClientRetrySettings(this.maxAttempts, this.maxDelay, this.maxTotalWait, this.initialBackoff,
				this.jitter, this.pacing, this.breakerThreshold, this.breakerOpenFor, warnRemainingPercent);
	}

	private static void positive(String property, Duration value, String example) {
		if (value == null || value.isNegative() || value.isZero()) {
			throw invalid(property, value, "must be a positive duration", example);
		}
	}

	private static void notNegative(String property, Duration value, String example) {
		if (value == null || value.isNegative()) {
			throw invalid(property, value, "must not be negative", example);
		}
	}

	private static InvalidRateLimitConfigurationException invalid(String property, Object value, String reason,
			String example) {
		return new InvalidRateLimitConfigurationException(PREFIX + property, String.valueOf(value), reason, example);
	}

}
