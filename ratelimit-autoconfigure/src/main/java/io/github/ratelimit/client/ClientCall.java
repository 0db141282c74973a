package io.github.ratelimit.client;

import java.net.URI;
import java.time.Duration;
import java.util.function.Supplier;

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
 */
public final class ClientCall {

	private final RateLimitClient client;

	private final String method;

	private final URI uri;

	private final boolean idempotencyKey;

	ClientCall(RateLimitClient client, String method, URI uri, boolean idempotencyKey) {
		this.client = client;
		this.method = method;
		this.uri = uri;
		this.idempotencyKey = idempotencyKey;
	}

	/**
	 * How long to hold before sending the next attempt: zero, or until an exhausted
	 * policy of the host frees (plus jitter). Call before every attempt.
	 * @return the hold, zero when the request may go at once
	 * @throws RateLimitedException when the host's breaker is open, or when the hold is
	 * longer than {@code max-delay} or what is left of {@code max-total-wait}; the
	 * request must then not be sent
	 */
	public Duration beforeSend() {
		return Duration.ZERO;
	}

	/**
	 * Decides what to do with a response.
	 * @param status the response status
	 * @param headers the response headers
	 * @param body the response body, read only when the client gives up (for the problem
	 * members of the exception); may return {@code null}
	 * @return hand the response to the caller, retry after a wait, or give up
	 */
	public ClientDecision afterResponse(int status, HeaderLookup headers, Supplier<byte[]> body) {
		return new ClientDecision.Done();
	}

	/**
	 * How many requests this call has sent (counted by {@link #beforeSend()}).
	 * @return the attempts
	 */
	public int attempts() {
		return 0;
	}

}
