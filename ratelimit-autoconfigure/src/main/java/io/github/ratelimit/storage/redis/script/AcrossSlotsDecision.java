package io.github.ratelimit.storage.redis.script;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.github.ratelimit.storage.CheckResult;
import io.github.ratelimit.storage.Permits;
import io.github.ratelimit.storage.StoreDecision;
import io.github.ratelimit.storage.redis.PendingDecision;

/**
 * The checks of a request spread over several slots: one script each, sent in parallel,
 * and give-backs on refusal, so a rejected request still drains nothing.
 */
final class AcrossSlotsDecision implements PendingDecision {

	private final int size;

	private final List<SlotDecision> slots;

	private CompletableFuture<StoreDecision> answer = new CompletableFuture<>();

	/**
	 * Creates the decision; nothing is sent yet.
	 * @param size how many checks the request has
	 * @param slots its checks, by slot
	 */
	AcrossSlotsDecision(int size, List<SlotDecision> slots) {
		this.size = size;
		this.slots = slots;
	}

	AcrossSlotsDecision send() {
		CompletableFuture<?>[] answers = new CompletableFuture<?>[this.slots.size()];
		for (int s = 0; s < answers.length; s++) {
			answers[s] = this.slots.get(s).send().answer();
		}
		this.answer = CompletableFuture.allOf(answers).thenCompose((ignored) -> settle());
		return this;
	}

	private CompletableFuture<StoreDecision> settle() {
		CheckResult[] results = new CheckResult[this.size];
		boolean admitted = true;
		long waitMillis = 0;
		for (SlotDecision slot : this.slots) {
			StoreDecision part = slot.answer().join();
			admitted &= part.admitted();
			waitMillis = Math.max(waitMillis, part.waitMillis());
			for (int j = 0; j < slot.positions().length; j++) {
				results[slot.positions()[j]] = part.results().get(j);
			}
		}
		if (admitted) {
			return CompletableFuture
				.completedFuture(new StoreDecision(true, List.of(results), waitMillis, Permits.NONE));
		}
		List<CompletableFuture<?>> refunds = new ArrayList<>();
		for (SlotDecision slot : this.slots) {
			StoreDecision part = slot.answer().join();
			if (part.admitted()) {
				refunds.add(slot.refund(part).thenAccept((found) -> {
					for (int j = 0; j < slot.positions().length; j++) {
						results[slot.positions()[j]] = found.get(j);
					}
				}));
			}
		}
		return CompletableFuture.allOf(refunds.toArray(CompletableFuture[]::new))
			.thenApply((ignored) -> new StoreDecision(false, List.of(results), 0, Permits.NONE));
	}

	@Override
	public CompletableFuture<StoreDecision> answer() {
		return this.answer;
	}

	@Override
	public void abandon() {
		// a refusal gave back what the admitting slots took already; otherwise each slot
		// gives back its own
		this.answer.whenComplete((decision, failure) -> {
			if (failure != null || decision.admitted()) {
				this.slots.forEach(SlotDecision::abandon);
			}
		});
	}

}
