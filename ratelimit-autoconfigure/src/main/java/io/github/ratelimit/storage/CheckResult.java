package io.github.ratelimit.storage;

import java.util.List;

/**
 * What a store found for one {@link LimitCheck}.
 *
 * @param hadTokens whether every bandwidth of the bucket held the request's cost
 * @param bandwidths one result per bandwidth of the check's limit, in the limit's order
 */
public record CheckResult(boolean hadTokens, List<BandwidthResult> bandwidths) {

	public CheckResult {
		bandwidths = List.copyOf(bandwidths);
	}

}
