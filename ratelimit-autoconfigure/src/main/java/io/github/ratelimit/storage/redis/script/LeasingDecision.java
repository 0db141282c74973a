package io.github.ratelimit.storage.redis.script;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.github.ratelimit.storage.LimitCheck;
import io.github.ratelimit.storage.StoreDecision;
import io.github.ratelimit.storage.redis.PendingDecision;

/**
 * The decision of a request that may take concurrency permits: an admitted answer holds a
 * {@link Lease} on each bucket that gave one (non-enforced checks included), renewed
 * until released; an abandoned decision gives its permits back with the rest of what it
 * took, and its lease is never renewed.
 */
final class LeasingDecision implements PendingDecision {

	private final PendingDecision decision;

	private final CompletableFuture<StoreDecision> answer;

	LeasingDecision(PendingDecision decision, List<LimitCheck> checks, byte[][] keys, byte[] leaseId,
			TokenBucketScript script, LeaseKeeper leases) {
		this.decision = decision;
		this.answer = decision.answer().thenApply((answer) -> {
			if (!answer.admitted()) {
				return answer;
			}
			List<Lease.Held> held = new ArrayList<>(1);
			for (int i = 0; i < checks.size(); i++) {
				long permits = script.permits(checks.get(i));
				if (permits > 0 && answer.results().get(i).hadTokens()) {
					held.add(new Lease.Held(keys[i], leaseId, permits));
				}
			}
			return new StoreDecision(true, answer.results(), answer.waitMillis(), leases.hold(held));
		});
	}

	@Override
	public CompletableFuture<StoreDecision> answer() {
		return this.answer;
	}

	@Override
	public void abandon() {
		// the decision gives back the permits by lease id; the lease only has to stop
		// being renewed
		this.decision.abandon();
		this.answer.thenAccept((answer) -> {
			if (answer.permits() instanceof Lease lease) {
				lease.forget();
			}
		});
	}

}
