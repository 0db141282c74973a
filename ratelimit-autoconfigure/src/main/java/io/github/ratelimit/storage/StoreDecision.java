package io.github.ratelimit.storage;

import java.util.List;

/**
 * The store's answer for a whole request.
 *
 * @param admitted whether every enforced check had its tokens (or gets them within its
 * wait); when {@code false} nothing was taken from any bucket
 * @param results one result per check, in the order of the checks
 * @param waitMillis how long an admitted request must wait before it proceeds: the
 * longest refill its checks reserved tokens for; 0 when it may go at once
 * @param permits the concurrency permits the admitted request holds ({@link Permits#NONE}
 * when none)
 */
public record StoreDecision(boolean admitted, List<CheckResult> results, long waitMillis, Permits permits) {

	public StoreDecision {
		results = List.copyOf(results);
	}

	/** A decision that waits for nothing and holds no permit. */
	public StoreDecision(boolean admitted, List<CheckResult> results) {
		this(admitted, results, 0, Permits.NONE);
	}

}
