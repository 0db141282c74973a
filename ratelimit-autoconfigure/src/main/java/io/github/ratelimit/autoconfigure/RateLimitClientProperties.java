package io.github.ratelimit.autoconfigure;

import java.time.Duration;

/**
 * The calling side, under {@code ratelimit.client}: how the application's own
 * {@code RestClient}, {@code RestTemplate} and {@code WebClient} calls honour the rate
 * limits of the APIs they call (see docs/client.md). Off unless switched on.
 */
public class RateLimitClientProperties {

	/**
	 * Whether the builders of RestClient, RestTemplate and WebClient (and the HTTP
	 * interface clients built on them) honour Retry-After and the RateLimit headers of
	 * the APIs they call.
	 */
	private boolean enabled;

	/**
	 * Most attempts of one call, the first included: 1 never retries.
	 */
	private int maxAttempts = 4;

	/**
	 * Longest single wait: a response that asks for longer is handed back as a
	 * RateLimitedException instead of being waited out.
	 */
	private Duration maxDelay = Duration.ofSeconds(30);

	/**
	 * Budget of all the waits of one call together; then the call gives up.
	 */
	private Duration maxTotalWait = Duration.ofMinutes(2);

	/**
	 * First backoff when a refusal says nothing about when to retry: it doubles with each
	 * attempt (capped by max-delay), with full jitter.
	 */
	private Duration initialBackoff = Duration.ofMillis(500);

	/**
	 * Most that is added, uniformly at random, to a wait the server gave, so that clients
	 * refused at the same instant do not all come back at the same instant.
	 */
	private Duration jitter = Duration.ofSeconds(1);

	/**
	 * Whether a response that shows a policy exhausted holds the next requests to that
	 * host until it frees, instead of sending requests certain to be refused.
	 */
	private boolean pacing = true;

	/**
	 * Consecutive 429 responses from one host that open its breaker: calls to that host
	 * then fail at once, without a request, for breaker-open-for (0: no breaker).
	 */
	private int breakerThreshold = 5;

	/**
	 * How long an open breaker refuses calls to its host (or the server's own wait, if
	 * longer).
	 */
	private Duration breakerOpenFor = Duration.ofSeconds(30);

	/**
	 * A WARN hint, at most once a minute per host, when at most this share of a policy is
	 * left (percent, 0 to 100; 0: no hint).
	 */
	private int warnRemainingPercent = 10;

	public boolean isEnabled() {
		return this.enabled;
	}

	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	public int getMaxAttempts() {
		return this.maxAttempts;
	}

	public void setMaxAttempts(int maxAttempts) {
		this.maxAttempts = maxAttempts;
	}

	public Duration getMaxDelay() {
		return this.maxDelay;
	}

	public void setMaxDelay(Duration maxDelay) {
		this.maxDelay = maxDelay;
	}

	public Duration getMaxTotalWait() {
		return this.maxTotalWait;
	}

	public void setMaxTotalWait(Duration maxTotalWait) {
		this.maxTotalWait = maxTotalWait;
	}

	public Duration getInitialBackoff() {
		return this.initialBackoff;
	}

	public void setInitialBackoff(Duration initialBackoff) {
		this.initialBackoff = initialBackoff;
	}

	public Duration getJitter() {
		return this.jitter;
	}

	public void setJitter(Duration jitter) {
		this.jitter = jitter;
	}

	public boolean isPacing() {
		return this.pacing;
	}

	public void setPacing(boolean pacing) {
		this.pacing = pacing;
	}

	public int getBreakerThreshold() {
		return this.breakerThreshold;
	}

	public void setBreakerThreshold(int breakerThreshold) {
		this.breakerThreshold = breakerThreshold;
	}

	public Duration getBreakerOpenFor() {
		return this.breakerOpenFor;
	}

	public void setBreakerOpenFor(Duration breakerOpenFor) {
		this.breakerOpenFor = breakerOpenFor;
	}

	public int getWarnRemainingPercent() {
		return this.warnRemainingPercent;
	}

	public void setWarnRemainingPercent(int warnRemainingPercent) {
		this.warnRemainingPercent = warnRemainingPercent;
	}

}
