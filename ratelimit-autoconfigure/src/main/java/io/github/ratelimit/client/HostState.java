package io.github.ratelimit.client;

import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * What a {@link RateLimitClient} remembers of one host: the pacing holds of its exhausted
 * policies and its breaker. Thread-safe; every method is short and synchronized, since
 * contention is at most one lock per request sent.
 */
final class HostState {

	/** A host names few policies; more would only be a server naming them per request. */
	static final int MAX_HOLDS = 64;

	/** The key of a hold whose headers name no policy. */
	static final String UNNAMED = "";

	/** Held policies ({@link #UNNAMED} when the headers name none) and when they free. */
	private final Map<String, Instant> holds = new LinkedHashMap<>();

	private int consecutiveRefusals;

	private @Nullable Instant breakerOpenUntil;

	/**
	 * Holds the host until a policy frees; a later hold of the same policy wins.
	 * @param policy the policy, or {@link #UNNAMED}
	 * @param until when it frees
	 */
	synchronized void hold(String policy, Instant until) {
		this.holds.merge(policy, until, (a, b) -> a.isAfter(b) ? a : b);
		if (this.holds.size() > MAX_HOLDS) {
			Iterator<String> oldest = this.holds.keySet().iterator();
			oldest.next();
			oldest.remove();
		}
	}

	/**
	 * Releases the hold of a policy a response shows with quota again.
	 * @param policy the policy, or {@link #UNNAMED}
	 */
	synchronized void release(String policy) {
		this.holds.remove(policy);
	}

	/**
	 * How long the host is held: until the latest hold frees, since a request's policy is
	 * not known before it is sent.
	 * @param now the time
	 * @return the hold, or {@code null} when none is in force
	 */
	synchronized @Nullable Duration heldFor(Instant now) {
		Instant latest = null;
		for (Iterator<Instant> iterator = this.holds.values().iterator(); iterator.hasNext();) {
			Instant until = iterator.next();
			if (!until.isAfter(now)) {
				iterator.remove();
			}
			else if (latest == null || until.isAfter(latest)) {
				latest = until;
			}
		}
		return (latest != null) ? Duration.between(now, latest) : null;
	}

	/**
	 * Counts a 429; the {@code threshold}-th in a row opens the breaker for
	 * {@code openFor}, or the server's wait if that is longer. Once open, it stays ready
	 * to reopen: the first 429 after it closes by time opens it again.
	 * @param now the time
	 * @param threshold how many consecutive 429s open the breaker (0 never)
	 * @param openFor how long it stays open at least
	 * @param serverWait the wait the refusal asks for, or {@code null}
	 */
	synchronized void refused(Instant now, int threshold, Duration openFor, @Nullable Duration serverWait) {
		this.consecutiveRefusals++;
		if (threshold > 0 && this.consecutiveRefusals >= threshold) {
			Duration open = (serverWait != null && serverWait.compareTo(openFor) > 0) ? serverWait : openFor;
			Instant until = now.plus(open);
			if (this.breakerOpenUntil == null || until.isAfter(this.breakerOpenUntil)) {
				this.breakerOpenUntil = until;
			}
		}
	}

	/** A response other than a refusal ends the run of 429s and closes the breaker. */
	synchronized void answered() {
		this.consecutiveRefusals = 0;
		this.breakerOpenUntil = null;
	}

	/**
	 * How long the breaker stays open.
	 * @param now the time
	 * @return the time left, or {@code null} when it is closed
	 */
	synchronized @Nullable Duration breakerOpenFor(Instant now) {
		Instant until = this.breakerOpenUntil;
		return (until != null && until.isAfter(now)) ? Duration.between(now, until) : null;
	}

}
