package io.github.ratelimit.storage.redis;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisException;

import io.github.ratelimit.storage.StoreUnavailableException;
import io.github.ratelimit.storage.redis.connection.RedisSession;

/**
 * What a failure of Lettuce or Redis means for a store: whatever was thrown becomes a
 * {@link StoreUnavailableException} of the kind health, metrics and the failure-mode log
 * report (a lost connection, a timeout, a refusal in Redis's own words, or another
 * error).
 */
final class RedisFailures {

	private RedisFailures() {
	}

	/**
	 * Waits for an answer of Redis; a failure, a timeout or an interrupt is the store
	 * being unavailable.
	 * @param maxWait the longest a decision waits, for the message of a timeout
	 */
	static <T> T await(CompletableFuture<T> answer, long nanos, Duration maxWait) {
		try {
			return answer.get(nanos, TimeUnit.NANOSECONDS);
		}
		catch (ExecutionException ex) {
			throw classify(ex.getCause(), maxWait);
		}
		catch (TimeoutException ex) {
			throw classify(ex, maxWait);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new StoreUnavailableException("Interrupted while waiting for Redis", ex);
		}
	}

	/**
	 * A failure of a decision sent on {@code session}: when the connection is gone
	 * meanwhile (closed, or an I/O error such as a reset, which Lettuce reports before it
	 * closes the connection), the store is not connected, whatever words Lettuce used.
	 */
	static StoreUnavailableException classify(RedisSession session, Throwable failure, Duration maxWait) {
		StoreUnavailableException unavailable = classify(failure, maxWait);
		if (unavailable.kind() == StoreUnavailableException.Kind.ERROR
				&& (!session.isOpen() || lostConnection(failure))) {
			return new StoreUnavailableException(StoreUnavailableException.Kind.NOT_CONNECTED,
					"Not connected to Redis: the connection was lost (" + failure.getMessage() + ")", failure);
		}
		return unavailable;
	}

	/**
	 * A failure, unwrapped: a timeout, Redis refusing (an error it answered), or another
	 * error.
	 * @param maxWait the longest a decision waits, for the message of a timeout
	 */
	static StoreUnavailableException classify(Throwable failure, Duration maxWait) {
		Throwable cause = failure;
		while ((cause instanceof CompletionException || cause instanceof ExecutionException)
				&& cause.getCause() != null) {
			cause = cause.getCause();
		}
		if (cause instanceof StoreUnavailableException unavailable) {
			return unavailable;
		}
		if (cause instanceof TimeoutException || cause instanceof io.github.bucket4j.TimeoutException) {
			return new StoreUnavailableException(StoreUnavailableException.Kind.TIMEOUT,
					"Redis did not decide within " + maxWait.toMillis() + " ms", cause);
		}
		for (Throwable c = cause; c != null; c = c.getCause()) {
			if (c instanceof RedisCommandExecutionException refused) {
				// Redis's own words: OOM command not allowed when used memory >
				// 'maxmemory', READONLY, LOADING...
				return new StoreUnavailableException(StoreUnavailableException.Kind.REFUSED,
						"Redis refused: " + refused.getMessage(), refused);
			}
		}
		return new StoreUnavailableException("Redis could not decide: " + cause, cause);
	}

	// a lost connection: an I/O error, or Lettuce refusing a command while it is
	// disconnected (the store's client rejects commands rather than queue them), which
	// can come before the session itself reads as closed
	static boolean lostConnection(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof IOException || cause instanceof RedisConnectionException
					|| rejectedWhileDisconnected(cause)) {
				return true;
			}
		}
		return false;
	}

	private static boolean rejectedWhileDisconnected(Throwable failure) {
		String message = failure.getMessage();
		return failure instanceof RedisException && message != null && message.startsWith("Currently not connected");
	}

}
