package io.github.ratelimit.storage.redis.bucket4j;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicIntegerArray;

import io.github.bucket4j.Nothing;
import io.github.bucket4j.VerboseResult;
import io.github.bucket4j.distributed.AsyncBucketProxy;
import org.jspecify.annotations.Nullable;

import io.github.ratelimit.storage.CheckResult;
import io.github.ratelimit.storage.LimitCheck;
import io.github.ratelimit.storage.StoreDecision;
import io.github.ratelimit.storage.bucket4j.BucketResults;
import io.github.ratelimit.storage.redis.PendingDecision;

/**
 * Decides one request over several Bucket4j buckets, which Bucket4j cannot update
 * atomically together: every bucket is asked in parallel, and when one refuses, the
 * tokens taken from the others are given back ({@code addTokens}) before the answer is
 * given, so a rejected request drains nothing. Between the take and the give-back a
 * concurrent request may see the lower count and be rejected; that errs on the safe side.
 * <p>
 * A decision that fails or runs out of time is {@link #abandon() abandoned}: whatever it
 * managed to take, now or when a late reply arrives, is given back, so an undecided
 * request leaves no trace either (best effort: a refund that fails itself is lost). Each
 * bucket is refunded at most once.
 */
final class CompensatingDecision implements PendingDecision {

	private final List<LimitCheck> checks;

	private final AsyncBucketProxy[] buckets;

	private final @Nullable CompletableFuture<VerboseResult<Boolean>>[] consumptions;

	/** 1 at index i once the tokens of check i have been given back. */
	private final AtomicIntegerArray refunded;

	private CompletableFuture<StoreDecision> answer = new CompletableFuture<>();

	@SuppressWarnings("unchecked")
	CompensatingDecision(Bucket4jSession session, List<LimitCheck> checks) {
		int size = checks.size();
		this.checks = checks;
		this.buckets = new AsyncBucketProxy[size];
		for (int i = 0; i < size; i++) {
			this.buckets[i] = session.bucket(checks.get(i));
		}
		this.consumptions = new CompletableFuture[size];
		this.refunded = new AtomicIntegerArray(size);
	}

	/**
	 * Asks every bucket for its tokens; the answer completes once refunds, if any, are
	 * done.
	 */
	void start() {
		try {
			for (int i = 0; i < this.buckets.length; i++) {
				this.consumptions[i] = this.buckets[i].asVerbose().tryConsume(this.checks.get(i).cost());
			}
			this.answer = CompletableFuture.allOf(this.consumptions).thenCompose((ignored) -> settle());
		}
		catch (RuntimeException ex) {
			// Lettuce and Bucket4j may also throw before they hand out a future
			this.answer = CompletableFuture.failedFuture(ex);
		}
	}

	@Override
	public CompletableFuture<StoreDecision> answer() {
		return this.answer;
	}

	private CompletableFuture<StoreDecision> settle() {
		int size = this.checks.size();
		CheckResult[] results = new CheckResult[size];
		boolean admitted = true;
		for (int i = 0; i < size; i++) {
			VerboseResult<Boolean> consumption = this.consumptions[i].join();
			LimitCheck check = this.checks.get(i);
			admitted &= consumption.getValue() || !check.enforced();
			results[i] = BucketResults.of(check, consumption.getValue(), consumption.getState(), 0);
		}
		if (admitted) {
			return CompletableFuture.completedFuture(new StoreDecision(true, List.of(results)));
		}
		List<CompletableFuture<?>> refunds = new ArrayList<>(size);
		for (int i = 0; i < size; i++) {
			if (results[i].hadTokens()) {
				int index = i;
				refunds.add(refund(i).thenAccept((refund) -> {
					if (refund != null) {
						results[index] = BucketResults.of(this.checks.get(index), true, refund.getState(), 0);
					}
				}));
			}
		}
		return CompletableFuture.allOf(refunds.toArray(CompletableFuture[]::new))
			.thenApply((ignored) -> new StoreDecision(false, List.of(results)));
	}

	/**
	 * Gives back whatever this decision took or will take; called when it failed or timed
	 * out.
	 */
	@Override
	public void abandon() {
		for (int i = 0; i < this.consumptions.length; i++) {
			CompletableFuture<VerboseResult<Boolean>> consumption = this.consumptions[i];
			if (consumption != null) {
				int index = i;
				consumption.thenAccept((result) -> {
					if (result.getValue()) {
						refund(index);
					}
				});
			}
		}
	}

	/**
	 * Gives the tokens of check {@code i} back, unless that was done already (then
	 * completes with null).
	 */
	private CompletableFuture<@Nullable VerboseResult<Nothing>> refund(int i) {
		if (!this.refunded.compareAndSet(i, 0, 1)) {
			return CompletableFuture.completedFuture(null);
		}
		return this.buckets[i].asVerbose().addTokens(this.checks.get(i).cost());
	}

}
