package io.github.ratelimit.storage.redis.script;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;

import io.github.ratelimit.storage.BandwidthResult;
import io.github.ratelimit.storage.CheckResult;
import io.github.ratelimit.storage.LimitCheck;
import io.github.ratelimit.storage.StoreDecision;
import io.github.ratelimit.storage.redis.PendingDecision;

/**
 * The checks of one slot: one script, atomic. Abandoned, or refused in another slot, it
 * gives back what its admitted answer took.
 */
final class SlotDecision implements PendingDecision {

	private final ScriptSession session;

	private final TokenBucketScript script;

	private final LongSupplier clock;

	private final List<LimitCheck> checks;

	private final byte[][] keys;

	private final byte[] leaseId;

	private final int[] positions;

	private CompletableFuture<StoreDecision> answer = new CompletableFuture<>();

	private volatile boolean abandoned;

	/**
	 * Creates the decision of one slot; nothing is sent yet.
	 * @param session the session to send it on
	 * @param script the script's arguments and replies
	 * @param clock the time in ms the script uses, or -1 for Redis's
	 * @param checks the slot's checks
	 * @param keys their keys
	 * @param leaseId the request's lease, or {@link TokenBucketScript#NO_LEASE}
	 * @param positions where each check stands among the request's checks
	 */
	SlotDecision(ScriptSession session, TokenBucketScript script, LongSupplier clock, List<LimitCheck> checks,
			byte[][] keys, byte[] leaseId, int[] positions) {
		this.session = session;
		this.script = script;
		this.clock = clock;
		this.checks = checks;
		this.keys = keys;
		this.leaseId = leaseId;
		this.positions = positions;
	}

	SlotDecision send() {
		this.answer = this.session.decide(new TokenBucketScript.Request(this.checks, this.leaseId), this.keys,
				this.clock.getAsLong());
		return this;
	}

	/** Where each of this slot's checks stands among the request's checks. */
	int[] positions() {
		return this.positions;
	}

	@Override
	public CompletableFuture<StoreDecision> answer() {
		return this.answer;
	}

	@Override
	public void abandon() {
		if (this.abandoned) {
			return;
		}
		this.abandoned = true;
		this.answer.thenAccept((decision) -> {
			if (decision.admitted()) {
				refund(decision);
			}
		});
	}

	/**
	 * Gives back what this slot's admitted answer took: tokens, quota counts and permits.
	 * @return the slot's results as a refusal reports them: the state as given back, the
	 * waits as found
	 */
	CompletableFuture<List<CheckResult>> refund(StoreDecision decision) {
		List<CheckResult> results = decision.results();
		List<Integer> taken = new ArrayList<>(this.checks.size());
		for (int i = 0; i < this.checks.size(); i++) {
			if (results.get(i).hadTokens()) {
				taken.add(i);
			}
		}
		if (taken.isEmpty()) {
			return CompletableFuture.completedFuture(results);
		}
		List<LimitCheck> takenChecks = new ArrayList<>(taken.size());
		byte[][] takenKeys = new byte[taken.size()][];
		for (int t = 0; t < takenKeys.length; t++) {
			takenChecks.add(this.checks.get(taken.get(t)));
			takenKeys[t] = this.keys[taken.get(t)];
		}
		return this.session
			.run(takenKeys, this.script.arguments(List.of(new TokenBucketScript.Request(takenChecks, this.leaseId)),
					true, this.clock.getAsLong()))
			.thenApply((reply) -> {
				List<CheckResult> givenBack = TokenBucketScript.read(reply, 0, takenChecks).decision().results();
				CheckResult[] found = results.toArray(CheckResult[]::new);
				for (int t = 0; t < taken.size(); t++) {
					found[taken.get(t)] = asFound(results.get(taken.get(t)), givenBack.get(t));
				}
				return List.of(found);
			});
	}

	private static CheckResult asFound(CheckResult decided, CheckResult givenBack) {
		List<BandwidthResult> bandwidths = new ArrayList<>(decided.bandwidths().size());
		for (int b = 0; b < decided.bandwidths().size(); b++) {
			BandwidthResult taken = decided.bandwidths().get(b);
			BandwidthResult left = givenBack.bandwidths().get(b);
			bandwidths.add(new BandwidthResult(left.remaining(), taken.millisUntilCost(), left.millisUntilFull(),
					left.millisUntilCostAgain()));
		}
		return new CheckResult(decided.hadTokens(), bandwidths);
	}

}
