package io.github.ratelimit.storage.redis;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import io.github.ratelimit.storage.StoreDecision;
import io.github.ratelimit.storage.StoreUnavailableException;
import io.github.ratelimit.storage.redis.connection.CircuitBreaker;
import io.github.ratelimit.storage.redis.connection.RedisSession;

/**
 * Follows the decisions a store sent until each is answered or given up on, and keeps the
 * circuit breaker's books: it hears of every outcome before the caller does. A decision
 * fails when Redis has answered nothing on the connection for {@code timeout} since it
 * was sent (not counting time this JVM was too busy to read an answer); while Redis keeps
 * answering others it waits up to {@code maxWait}, and then fails without counting
 * against the breaker. A decision given up on is abandoned, so it leaves no trace.
 */
final class DecisionWatch {

	private final CircuitBreaker circuitBreaker;

	private final ScheduledExecutorService timer;

	private final Duration timeout;

	private final long timeoutNanos;

	private final Duration maxWait;

	private final long maxWaitNanos;

	/** When Redis last answered anything on the store's connection. */
	private volatile long lastAnswerNanos;

	/**
	 * Creates a watch.
	 * @param circuitBreaker told of every outcome
	 * @param timer runs the deadlines (and completes late decisions on its thread)
	 * @param timeout how long Redis may stay silent
	 * @param maxWait the longest a decision waits while Redis answers others
	 */
	DecisionWatch(CircuitBreaker circuitBreaker, ScheduledExecutorService timer, Duration timeout, Duration maxWait) {
		this.circuitBreaker = circuitBreaker;
		this.timer = timer;
		this.timeout = timeout;
		this.timeoutNanos = timeout.toNanos();
		this.maxWait = maxWait;
		this.maxWaitNanos = maxWait.toNanos();
	}

	/**
	 * Notes that Redis answered something on the store's connection, for the silence
	 * rule.
	 */
	void answered() {
		this.lastAnswerNanos = System.nanoTime();
	}

	/**
	 * Completes {@code result} with the outcome of a decision the breaker let through.
	 * @param session the session it was sent on
	 * @param pending the decision
	 * @param started when it was sent ({@link System#nanoTime()})
	 * @param result the caller's future, completed once
	 */
	void follow(RedisSession session, PendingDecision pending, long started, CompletableFuture<StoreDecision> result) {
		// result is a future of our own, so callers see StoreUnavailableException itself,
		// never a CompletionException
		pending.answer().whenComplete((answer, failure) -> {
			if (failure == null) {
				answered();
				// when the timer got there first it abandoned the decision, which gives
				// back what this answer took;
				// otherwise the breaker hears of the success before the caller does
				if (!result.isDone()) {
					this.circuitBreaker.recordSuccess();
					result.complete(answer);
				}
			}
			else {
				StoreUnavailableException unavailable = RedisFailures.classify(session, failure, this.maxWait);
				if (unavailable.kind() == StoreUnavailableException.Kind.REFUSED) {
					// an error is an answer too: Redis is not silent, it refuses (out of
					// memory, read-only...)
					answered();
				}
				if (!result.isDone()) {
					this.circuitBreaker.recordFailure();
					if (result.completeExceptionally(unavailable)) {
						pending.abandon();
					}
				}
			}
		});
		watch(result, pending, started, started + this.timeoutNanos);
	}

	private void watch(CompletableFuture<StoreDecision> result, PendingDecision pending, long started, long due) {
		try {
			this.timer.schedule(() -> checkDeadline(result, pending, started, due), due - System.nanoTime(),
					TimeUnit.NANOSECONDS);
		}
		catch (RejectedExecutionException ex) {
			// closed meanwhile
			if (result.completeExceptionally(new StoreUnavailableException("The Redis store is closed"))) {
				pending.abandon();
			}
		}
	}

	private void checkDeadline(CompletableFuture<StoreDecision> result, PendingDecision pending, long started,
			long due) {
		if (result.isDone()) {
			return;
		}
		long now = System.nanoTime();
		// how long Redis has been silent since this decision was sent, less the time this
		// JVM gave nobody a
		// chance to read an answer: a timer that ran late was starved of CPU, and so,
		// likely, was the reader
		long silent = now - Math.max(this.lastAnswerNanos, started) - Math.max(0, now - due);
		long waited = now - started;
		if (silent >= this.timeoutNanos) {
			// the breaker hears of the failure before the caller does
			this.circuitBreaker.recordFailure();
			if (result.completeExceptionally(new StoreUnavailableException(StoreUnavailableException.Kind.TIMEOUT,
					"Redis answered nothing for " + this.timeout.toMillis() + " ms", null))) {
				pending.abandon();
			}
		}
		else if (waited >= this.maxWaitNanos) {
			// Redis is answering, this application is too busy to be answered in time:
			// not Redis's fault, so
			// not the breaker's business
			if (result.completeExceptionally(new StoreUnavailableException(StoreUnavailableException.Kind.OVERLOADED,
					"Redis is answering, but this decision's answer was not read within " + this.maxWait.toMillis()
							+ " ms (this application is overloaded)",
					null))) {
				pending.abandon();
			}
		}
		else {
			// Redis answers others: look again when the silence would reach its limit
			watch(result, pending, started, now + Math.min(this.timeoutNanos - silent, this.maxWaitNanos - waited));
		}
	}

}
