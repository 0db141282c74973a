package io.github.ratelimit.client;

import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * What a {@link RateLimitClient} remembers of one host: the pacing holds of its exhausted
 * policies, which routes were answered under which policies, and its breaker.
 * Thread-safe; every method is short and synchronized, since contention is at most one
 * lock per request sent.
 * <p>
 * A request's policy is not known before it is sent: a hold of a named policy holds the
 * routes that were answered under it (one spent export quota must not hold the rest of
 * the API), a hold whose headers name no policy holds the whole host.
 */
final class HostState {

	/** A host names few policies; more would only be a server naming them per request. */
	static final int MAX_HOLDS = 64;

	/** The key of a hold whose headers name no policy. */
	static final String UNNAMED = "";

	/** Routes remembered per host, the least recently used dropped first. */
	static final int MAX_ROUTES = 1024;

	/** Policies remembered per route: the binding one may change between responses. */
	static final int MAX_POLICIES_PER_ROUTE = 8;

	/** Held policies ({@link #UNNAMED} when the headers name none) and when they free. */
	private final Map<String, Instant> holds = new LinkedHashMap<>();

	/** The policies each route was answered under, least recently used first. */
	private final Map<String, Set<String>> routes = new LinkedHashMap<>(16, 0.75f, true) {

		@Override
		protected boolean removeEldestEntry(Map.Entry<String, Set<String>> eldest) {
			return size() > MAX_ROUTES;
		}

	};

	private int consecutiveRefusals;

	private @Nullable Instant breakerOpenUntil;

	/** While half-open: until when the request testing the host holds the others back. */
	private @Nullable Instant probeUntil;

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
	 * Remembers that a route was answered under a policy, so that its holds hold the
	 * route.
	 * @param route the route ({@link ClientCall#route})
	 * @param policy the policy the response named
	 */
	synchronized void answeredUnder(String route, String policy) {
		Set<String> policies = this.routes.computeIfAbsent(route, (key) -> new LinkedHashSet<>());
		policies.remove(policy);
		policies.add(policy);
		if (policies.size() > MAX_POLICIES_PER_ROUTE) {
			Iterator<String> oldest = policies.iterator();
			oldest.next();
			oldest.remove();
		}
	}

	/**
	 * How long a request to a route is held: until the latest hold that concerns it frees
	 * (a hold of a policy the route was answered under, or one that names no policy).
	 * @param now the time
	 * @param route the request's route
	 * @return the hold, or {@code null} when none is in force
	 */
	synchronized @Nullable Duration heldFor(Instant now, String route) {
		Set<String> policies = this.routes.getOrDefault(route, Set.of());
		Instant latest = null;
		for (Iterator<Map.Entry<String, Instant>> iterator = this.holds.entrySet().iterator(); iterator.hasNext();) {
			Map.Entry<String, Instant> hold = iterator.next();
			Instant until = hold.getValue();
			if (!until.isAfter(now)) {
				iterator.remove();
			}
			else if ((UNNAMED.equals(hold.getKey()) || policies.contains(hold.getKey()))
					&& (latest == null || until.isAfter(latest))) {
				latest = until;
			}
		}
		return (latest != null) ? Duration.between(now, latest) : null;
	}

	/**
	 * Counts a 429; the {@code threshold}-th in a row opens the breaker for
	 * {@code openFor}, or the server's wait if that is longer. Once open, it stays ready
	 * to reopen: a 429 to the request testing the host once the time is up opens it
	 * again.
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
		this.probeUntil = null;
	}

	/** A response other than a refusal ends the run of 429s and closes the breaker. */
	synchronized void answered() {
		this.consecutiveRefusals = 0;
		this.breakerOpenUntil = null;
		this.probeUntil = null;
	}

	/**
	 * An attempt ended without telling whether the host recovered (no response, or a
	 * 503): a half-open breaker lets the next request test it.
	 */
	synchronized void untested() {
		this.probeUntil = null;
	}

	/**
	 * How long the breaker stays open.
	 * @param now the time
	 * @return the time left, or {@code null} when it is closed or half-open
	 */
	synchronized @Nullable Duration breakerOpenFor(Instant now) {
		Instant until = this.breakerOpenUntil;
		return (until != null && until.isAfter(now)) ? Duration.between(now, until) : null;
	}

	/**
	 * Lets a request past the breaker, or tells why not. Closed, every request goes;
	 * open, none. Once its time is up the breaker is half-open: one request at a time
	 * tests the host, and the others are held back until its answer closes the breaker
	 * (anything but a 429) or opens it again (a 429); a test without an answer within
	 * {@code probeFor} lets the next request test.
	 * @param now the time
	 * @param probeFor how long a test holds the others back at most
	 * @return {@code null} when the request may be sent; the time the breaker stays open,
	 * or {@link Duration#ZERO} while another request tests the host
	 */
	synchronized @Nullable Duration pass(Instant now, Duration probeFor) {
		Instant until = this.breakerOpenUntil;
		if (until == null) {
			return null;
		}
		if (until.isAfter(now)) {
			return Duration.between(now, until);
		}
		if (this.probeUntil != null && this.probeUntil.isAfter(now)) {
			return Duration.ZERO;
		}
		this.probeUntil = now.plus(probeFor);
		return null;
	}

}
