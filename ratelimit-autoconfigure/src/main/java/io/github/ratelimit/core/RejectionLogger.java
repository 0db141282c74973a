package io.github.ratelimit.core;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes one structured line per refused request, at INFO, so an operator can see who is limited and
 * why. Ids are verified names or client addresses; credentials never reach it (tokens are hashes).
 */
public final class RejectionLogger implements DecisionListener {

	private static final Logger logger = LoggerFactory.getLogger("io.github.ratelimit.rejections");

	@Override
	public void onDecision(Decision decision, long elapsedNanos) {
		if (decision.outcome().admits() || !logger.isInfoEnabled()) {
			return;
		}
		PolicyState binding = decision.binding();
		Identity identity = decision.identity();
		if (binding != null) {
			logger.info("rate limit outcome={} policy={} scope={} id={} tier={} group={} limit={} retry_after={}",
					decision.outcome(), binding.name(), binding.dimension().key(), binding.id(), identity.tier(),
					decision.classification().group(), binding.limit(), decision.retryAfterSeconds());
		}
		else {
			logger.info("rate limit outcome={} policy={} ip={} user={} tier={} group={}", decision.outcome(),
					(decision.blockedBy() != null) ? decision.blockedBy().name() : "-", identity.ip(), identity.user(),
					identity.tier(), decision.classification().group());
		}
	}

}
