package io.github.ratelimit.client;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * The one-line message of a {@link RateLimitedException}, in the words of the guide for
 * rate-limited callers: {@code Rate limit exceeded for org. Retry after 8s or reduce
 * concurrency.}, followed by why the client did not retry where that is not obvious.
 */
final class GiveUpMessage {

	private static final int MAX_SCOPE_LENGTH = 64;

	private GiveUpMessage() {
	}

	/**
	 * Writes the message.
	 * @param status the refusal's status, or 429 when the request was not sent
	 * @param retryAfter the wait to report, or {@code null}
	 * @param problem the problem body's members, or {@code null}
	 * @param host the host called
	 * @param method the request method
	 * @param reason why the client gave up
	 * @param attempts how many requests the call sent
	 * @param sent whether the last request was sent (not held back by pacing or the
	 * breaker)
	 * @param settings the client's settings
	 * @return the message
	 */
	static String of(int status, @Nullable Duration retryAfter, @Nullable ProblemDetails problem, String host,
			String method, GiveUpReason reason, int attempts, boolean sent, ClientRetrySettings settings) {
		StringBuilder message = new StringBuilder(128);
		boolean unavailable = status == 503;
		String scope = (problem != null) ? printable(problem.scope()) : null;
		if (unavailable) {
			message.append("Service unavailable at ").append(host).append('.');
		}
		else if (scope != null) {
			message.append("Rate limit exceeded for ").append(scope).append('.');
		}
		else {
			message.append("Rate limit exceeded at ").append(host).append('.');
		}
		message.append((retryAfter != null) ? " Retry after " + format(retryAfter) : " Retry later");
		message.append(unavailable ? "." : " or reduce concurrency.");
		switch (reason) {
			case UNSAFE_METHOD ->
				message.append(' ').append(method).append(" is not retried without an Idempotency-Key.");
			case ATTEMPTS ->
				message.append(" Gave up after ").append(attempts).append((attempts != 1) ? " attempts." : " attempt.");
			case BUDGET -> message.append(sent ? "" : " Not sent: an earlier response showed the limit exhausted.")
				.append(" Waiting would exceed the client's total wait of ")
				.append(format(settings.maxTotalWait()))
				.append('.');
			case WAIT_TOO_LONG ->
				message.append(sent ? "" : " Not sent: an earlier response showed the limit exhausted.")
					.append(" The wait is longer than the client's max delay of ")
					.append(format(settings.maxDelay()))
					.append('.');
			case BREAKER_OPEN -> message.append(" Not sent: ")
				.append(host)
				.append(" refused ")
				.append(settings.breakerThreshold())
				.append(" requests in a row")
				.append((sent || retryAfter != null) ? "." : "; another request is testing whether it recovered.");
		}
		return message.toString();
	}

	/**
	 * A wait as a person reads it, rounded up to the second: {@code 8s}, {@code 2m 5s},
	 * {@code 1h 30m}.
	 */
	static String format(Duration duration) {
		long seconds = Math.max(1, duration.plusMillis(999).toSeconds());
		if (seconds < 60) {
			return seconds + "s";
		}
		if (seconds < 3600) {
			long rest = seconds % 60;
			return (seconds / 60) + "m" + ((rest != 0) ? " " + rest + "s" : "");
		}
		long minutes = (seconds % 3600) / 60;
		return (seconds / 3600) + "h" + ((minutes != 0) ? " " + minutes + "m" : "");
	}

	/** A scope from the server, used only when it is a short printable word. */
	private static @Nullable String printable(@Nullable String scope) {
		if (scope == null || scope.isBlank() || scope.length() > MAX_SCOPE_LENGTH) {
			return null;
		}
		for (int i = 0; i < scope.length(); i++) {
			char c = scope.charAt(i);
			if (c < 0x20 || c > 0x7E) {
				return null;
			}
		}
		return scope;
	}

}
