package io.github.ratelimit.storage.redis;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicIntegerArray;

import io.github.bucket4j.BucketState;
import io.github.bucket4j.Nothing;
import io.github.bucket4j.VerboseResult;
import io.github.bucket4j.distributed.AsyncBucketProxy;
import org.jspecify.annotations.Nullable;

import io.github.ratelimit.storage.CheckResult;
import io.github.ratelimit.storage.LimitCheck;
import io.github.ratelimit.storage.StoreDecision;

/**
 * Decides one request over several Bucket4j buckets, which Bucket4j cannot update atomically together:
 * every bucket is asked in parallel, and when one refuses, the tokens taken from the others are given
 * back ({@code addTokens}) before the answer is given, so a rejected request drains nothing. Between
 * the take and the give-back a concurrent request may see the lower count and be rejected; that errs on
 * the safe side.
 * <p>
 * A decision that fails or runs out of time is {@link #abandon() abandoned}: whatever it managed to
 * take, now or when a late reply arrives, is given back, so an undecided request leaves no trace either
 * (best effort: a refund that fails itself is lost). Each bucket is refunded at most once.
 */
final class CompensatingDecision {

	private final List<LimitCheck> checks;

	private final AsyncBucketProxy[] buckets;

	private final @Nullable CompletableFuture<VerboseResult<Boolean>>[] consumptions;

	/** 1 at index i once the tokens of check i have been given back. */
	private final AtomicIntegerArray refunded;

	@SuppressWarnings("unchecked")
	CompensatingDecision(RedisSession session, List<LimitCheck> checks) {
		int size = checks.size();
		this.checks = checks;
		this.buckets = new AsyncBucketProxy[size];
		for (int i = 0; i < size; i++) {
			this.buckets[i] = session.bucket(checks.get(i));
		}
		this.consumptions = new CompletableFuture[size];
		this.refunded = new AtomicIntegerArray(size);
	}

	/** Asks every bucket for its tokens; the future completes once refunds, if any, are done. */
	CompletableFuture<StoreDecision> start() {
		try {
			for (int i = 0; i < this.buckets.length; i++) {
				this.consumptions[i] = this.buckets[i].asVerbose().tryConsume(this.checks.get(i).cost());
			}
			return CompletableFuture.allOf(this.consumptions).thenCompose((ignored) -> settle());
		}
		catch (RuntimeException ex) {
			// Lettuce and Bucket4j may also throw before they hand out a future
			return CompletableFuture.failedFuture(ex);
		}
	}

	private CompletableFuture<StoreDecision> settle() {
		int size = this.checks.size();
		CheckResult[] results = new CheckResult[size];
		boolean admitted = true;
		for (int i = 0; i < size; i++) {
			VerboseResult<Boolean> consumption = this.consumptions[i].join();
			boolean consumed = consumption.getValue();
			admitted &= consumed;
			results[i] = new CheckResult(consumed, available(consumption.getState(), this.checks.get(i)));
		}
		if (admitted) {
			return CompletableFuture.completedFuture(new StoreDecision(true, Arrays.asList(results)));
		}
		List<CompletableFuture<?>> refunds = new ArrayList<>(size);
		for (int i = 0; i < size; i++) {
			if (results[i].admitted()) {
				int index = i;
				refunds.add(refund(i).thenAccept((refund) -> {
					if (refund != null) {
						results[index] = new CheckResult(true, available(refund.getState(), this.checks.get(index)));
					}
				}));
			}
		}
		return CompletableFuture.allOf(refunds.toArray(CompletableFuture[]::new))
			.thenApply((ignored) -> new StoreDecision(false, Arrays.asList(results)));
	}

	/** Gives back whatever this decision took or will take; called when it failed or timed out. */
	void abandon() {
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

	/** Gives the tokens of check {@code i} back, unless that was done already (then completes with null). */
	private CompletableFuture<@Nullable VerboseResult<Nothing>> refund(int i) {
		if (!this.refunded.compareAndSet(i, 0, 1)) {
			return CompletableFuture.completedFuture(null);
		}
		return this.buckets[i].asVerbose().addTokens(this.checks.get(i).cost());
	}

	/** Tokens per bandwidth of the check's limit, never negative. */
	private static long[] available(BucketState state, LimitCheck check) {
		int count = check.policy().limit().bandwidths().size();
		long[] available = new long[count];
		for (int b = 0; b < count; b++) {
			available[b] = Math.max(0, state.getCurrentSize(b));
		}
		return available;
	}

}
