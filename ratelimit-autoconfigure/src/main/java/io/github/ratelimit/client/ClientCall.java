package io.github.ratelimit.client;

import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Set;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

/**
 * One logical call of a {@link RateLimitClient}: a request sent once or retried. Not
 * thread-safe; an adapter drives it in a loop:
 *
 * <pre class="code">
 * ClientCall call = client.start("GET", uri, false);
 * while (true) {
 *     sleep(call.beforeSend());              // may throw RateLimitedException
 *     Response response = send(request);
 *     switch (call.afterResponse(response.status(), response::headers, response::body)) {
 *         case ClientDecision.Done done -&gt; { return response; }
 *         case ClientDecision.Retry retry -&gt; sleep(retry.delay());
 *         case ClientDecision.GiveUp giveUp -&gt; throw giveUp.exception();
 *     }
 * }
 * </pre>
 *
 * Rules: a 429, or a 503 with {@code Retry-After}, is retried when the method is
 * idempotent (GET, HEAD, OPTIONS, PUT, DELETE, TRACE) or the request carries an
 * {@code Idempotency-Key}; every other status is handed to the caller (400, 401, 403,
 * 404, 409 and 422 cannot succeed unchanged). The wait is the server's
 * ({@code Retry-After}, else the reset of the exhausted policy) extended by a uniform
 * random share of {@code jitter}, else capped exponential backoff with full jitter; a
 * server's wait longer than {@code max-delay}, more than {@code max-attempts} requests or
 * waits beyond {@code max-total-wait} give up with a {@link RateLimitedException}.
 */
public final class ClientCall {

	private static final Set<String> IDEMPOTENT = Set.of("GET", "HEAD", "OPTIONS", "PUT", "DELETE", "TRACE");

	private static final int TOO_MANY_REQUESTS = 429;

	private static final int MAX_ROUTE_LENGTH = 256;

	private static final int SERVICE_UNAVAILABLE = 503;

	private final RateLimitClient client;

	private final ClientRetrySettings settings;

	private final String method;

	private final String host;

	private final String route;

	private final boolean safeToRetry;

	private int attempts;

	private Duration waited = Duration.ZERO;

	ClientCall(RateLimitClient client, String method, URI uri, boolean idempotencyKey) {
		this.client = client;
		this.settings = client.settings();
		this.method = method.toUpperCase(Locale.ROOT);
		this.host = host(uri);
		this.route = route(uri);
		this.safeToRetry = idempotencyKey || IDEMPOTENT.contains(this.method);
	}

	/**
	 * How long to hold before sending the next attempt: zero, or until an exhausted
	 * policy of the host frees (plus jitter, so that held requests do not all leave at
	 * once). Call before every attempt, the first included; it counts the attempt.
	 * <p>
	 * A request's policy is not known before it is sent: a hold of a policy holds the
	 * routes answered under it, a hold that names no policy every request to the host.
	 * @return the hold, zero when the request may go at once
	 * @throws RateLimitedException when the host's breaker is open, or when the hold is
	 * longer than {@code max-delay} or what is left of {@code max-total-wait}; the
	 * request must then not be sent
	 */
	public Duration beforeSend() {
		Instant now = this.client.clock().instant();
		HostState state = this.client.hosts().find(this.host);
		Duration hold = null;
		if (state != null) {
			Duration open = state.pass(now, this.settings.breakerOpenFor());
			if (open != null) {
				// zero: half-open, another request is testing the host; how long that
				// takes is not known
				throw notSent(open.isZero() ? null : open, GiveUpReason.BREAKER_OPEN);
			}
			hold = this.settings.pacing() ? state.heldFor(now, this.route) : null;
		}
		if (hold == null || hold.isZero()) {
			this.attempts++;
			return Duration.ZERO;
		}
		if (hold.compareTo(this.settings.maxDelay()) > 0) {
			// not sent: if it was to test a half-open breaker, the next request tests
			state.untested();
			throw notSent(hold, GiveUpReason.WAIT_TOO_LONG);
		}
		Duration left = budgetLeft();
		if (hold.compareTo(left) > 0) {
			state.untested();
			throw notSent(hold, GiveUpReason.BUDGET);
		}
		Duration wait = min(min(hold.plus(this.client.jitter()), this.settings.maxDelay()), left);
		this.waited = this.waited.plus(wait);
		this.attempts++;
		this.client.events().waited(this.host, wait, WaitReason.PACING);
		return wait;
	}

	/**
	 * Decides what to do with a response, and records what it says about the host (pacing
	 * holds, the breaker, few requests left).
	 * @param status the response status
	 * @param headers the response headers
	 * @param body the response body, read only when the client gives up on a refusal (for
	 * the problem members of the exception); may return {@code null}
	 * @return hand the response to the caller, retry after a wait, or give up
	 */
	public ClientDecision afterResponse(int status, HeaderLookup headers, Supplier<byte @Nullable []> body) {
		if (this.attempts == 0) {
			this.attempts = 1;
		}
		Instant now = this.client.clock().instant();
		RateLimitSignals signals = RateLimitSignals.read(status, headers, this.client.clock());
		HostState state = this.client.observe(this.host, this.route, signals, now);
		boolean refused = status == TOO_MANY_REQUESTS
				|| (status == SERVICE_UNAVAILABLE && signals.retryAfter() != null);
		if (!refused) {
			return new ClientDecision.Done();
		}
		Duration hint = signals.waitHint();
		if (!this.safeToRetry) {
			return giveUp(status, hint, headers, body, GiveUpReason.UNSAFE_METHOD);
		}
		if (this.attempts >= this.settings.maxAttempts()) {
			return giveUp(status, hint, headers, body, GiveUpReason.ATTEMPTS);
		}
		Duration left = budgetLeft();
		Duration wait;
		WaitReason reason;
		if (hint != null) {
			if (hint.compareTo(this.settings.maxDelay()) > 0) {
				return giveUp(status, hint, headers, body, GiveUpReason.WAIT_TOO_LONG);
			}
			if (hint.compareTo(left) > 0) {
				return giveUp(status, hint, headers, body, GiveUpReason.BUDGET);
			}
			wait = min(min(hint.plus(this.client.jitter()), this.settings.maxDelay()), left);
			reason = (signals.retryAfter() != null) ? WaitReason.RETRY_AFTER : WaitReason.RESET;
		}
		else {
			if (left.isZero()) {
				return giveUp(status, null, headers, body, GiveUpReason.BUDGET);
			}
			wait = min(this.client.backoff(this.attempts), left);
			reason = WaitReason.BACKOFF;
		}
		Duration open = (state != null) ? state.breakerOpenFor(now) : null;
		if (open != null && open.compareTo(wait) > 0) {
			// this refusal opened the breaker: the retry would not be sent
			return giveUp(status, open, headers, body, GiveUpReason.BREAKER_OPEN);
		}
		this.waited = this.waited.plus(wait);
		this.client.events().retried(this.host, status);
		this.client.events().waited(this.host, wait, reason);
		return new ClientDecision.Retry(wait);
	}

	/**
	 * Tells that the attempt got no response (an I/O error, a cancelled exchange): if it
	 * was the one request testing a half-open breaker, the next request may test the host
	 * instead of waiting for {@code breaker-open-for}.
	 */
	public void sendFailed() {
		HostState state = this.client.hosts().find(this.host);
		if (state != null) {
			state.untested();
		}
	}

	/**
	 * How many requests this call has sent (counted by {@link #beforeSend()}).
	 * @return the attempts
	 */
	public int attempts() {
		return this.attempts;
	}

	/**
	 * The host this call sends to, as holds, breakers and events name it.
	 * @return {@code host} or {@code host:port}
	 */
	public String host() {
		return this.host;
	}

	private Duration budgetLeft() {
		Duration left = this.settings.maxTotalWait().minus(this.waited);
		return left.isNegative() ? Duration.ZERO : left;
	}

	private ClientDecision giveUp(int status, @Nullable Duration retryAfter, HeaderLookup headers,
			Supplier<byte @Nullable []> body, GiveUpReason reason) {
		ProblemDetails problem = problem(headers, body);
		boolean safe = this.safeToRetry;
		String message = GiveUpMessage.of(status, retryAfter, problem, this.host, this.method, reason, this.attempts,
				true, this.settings);
		this.client.events().gaveUp(this.host, status, reason);
		return new ClientDecision.GiveUp(
				new RateLimitedException(message, status, retryAfter, safe, this.attempts, problem, reason));
	}

	/**
	 * The request was held back, so sending it later is safe whatever its method.
	 */
	private RateLimitedException notSent(@Nullable Duration retryAfter, GiveUpReason reason) {
		String message = GiveUpMessage.of(TOO_MANY_REQUESTS, retryAfter, null, this.host, this.method, reason,
				this.attempts, false, this.settings);
		this.client.events().gaveUp(this.host, TOO_MANY_REQUESTS, reason);
		return new RateLimitedException(message, TOO_MANY_REQUESTS, retryAfter, true, this.attempts, null, reason);
	}

	private static @Nullable ProblemDetails problem(HeaderLookup headers, Supplier<byte @Nullable []> body) {
		try {
			return ProblemDetails.parse(body.get(), headers.first("Content-Type"));
		}
		catch (RuntimeException ex) {
			// a body that cannot be read leaves the exception without problem members
			return null;
		}
	}

	private static Duration min(Duration a, Duration b) {
		return (a.compareTo(b) <= 0) ? a : b;
	}

	/**
	 * The route of a request as holds know it: its path without the query, each segment
	 * that holds a digit (an id) as {@code *}, so {@code /orders/17} and
	 * {@code /orders/18} are one route; at most 256 characters.
	 * @param uri the request's URI
	 * @return the route
	 */
	static String route(URI uri) {
		String path = uri.getRawPath();
		if (path == null || path.isEmpty()) {
			return "/";
		}
		StringBuilder route = new StringBuilder(Math.min(path.length(), MAX_ROUTE_LENGTH));
		String[] segments = path.split("/", -1);
		for (int i = 0; i < segments.length; i++) {
			if (i > 0) {
				route.append('/');
			}
			route.append(segments[i].chars().anyMatch(Character::isDigit) ? "*" : segments[i]);
			if (route.length() >= MAX_ROUTE_LENGTH) {
				return route.substring(0, MAX_ROUTE_LENGTH);
			}
		}
		return route.toString();
	}

	static String host(URI uri) {
		String host = uri.getHost();
		if (host == null) {
			String authority = uri.getRawAuthority();
			return (authority != null) ? authority.toLowerCase(Locale.ROOT) : "";
		}
		host = host.toLowerCase(Locale.ROOT);
		return (uri.getPort() != -1) ? host + ":" + uri.getPort() : host;
	}

}
