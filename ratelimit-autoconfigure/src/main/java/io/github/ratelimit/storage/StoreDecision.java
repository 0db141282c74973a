package io.github.ratelimit.storage;

import java.util.List;

/**
 * The store's answer for a whole request.
 *
 * @param admitted whether every enforced check had its tokens; when {@code false} nothing was taken
 * from any bucket
 * @param results one result per check, in the order of the checks
 */
public record StoreDecision(boolean admitted, List<CheckResult> results) {

	public StoreDecision {
		results = List.copyOf(results);
	}

}
