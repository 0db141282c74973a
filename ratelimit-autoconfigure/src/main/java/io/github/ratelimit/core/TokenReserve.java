package io.github.ratelimit.core;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.jspecify.annotations.Nullable;

import io.github.ratelimit.policy.Bandwidth;
import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.storage.BandwidthResult;
import io.github.ratelimit.storage.CheckResult;
import io.github.ratelimit.storage.LimitCheck;

/**
 * The tokens this instance holds for one bucket, taken from the store in advance
 * ({@link HotKeyReserves}).
 */
final class TokenReserve {

	final Policy policy;

	final String key;

	final AtomicLong tokens = new AtomicLong();

	// 1 while a refill is under way
	final AtomicLong filling = new AtomicLong();

	volatile long expiresAt;

	volatile long refusedUntil;

	// what the store said of the bucket after the last refill took its tokens
	volatile @Nullable CheckResult last;

	TokenReserve(Policy policy, String key, long expiresAt) {
		this.policy = policy;
		this.key = key;
		this.expiresAt = expiresAt;
	}

	boolean startFilling() {
		return this.filling.compareAndSet(0, 1);
	}

	boolean take(long cost) {
		long held;
		do {
			held = this.tokens.get();
			if (held < cost) {
				return false;
			}
		}
		while (!this.tokens.compareAndSet(held, held - cost));
		return true;
	}

	void filled(CheckResult result, long tokens, long expiresAt) {
		this.last = result;
		this.expiresAt = expiresAt;
		this.tokens.addAndGet(tokens);
	}

	// the bucket's numbers as the store left them after the last refill, with the
	// tokens still held here
	CheckResult report(LimitCheck check) {
		CheckResult result = this.last;
		if (result == null) {
			List<BandwidthResult> none = new ArrayList<>();
			for (int b = 0; b < check.policy().limit().bandwidths().size(); b++) {
				none.add(new BandwidthResult(0, 0, 0, 0));
			}
			result = new CheckResult(true, none);
		}
		// admitted here: every bandwidth holds the cost, now and after
		List<BandwidthResult> now = new ArrayList<>(result.bandwidths().size());
		for (BandwidthResult r : result.bandwidths()) {
			now.add(new BandwidthResult(r.remaining(), 0, r.millisUntilFull(), 0));
		}
		return plus(check, new CheckResult(true, now), this.tokens.get());
	}

	// a bucket's numbers with `held` more tokens in it, within its capacity
	static CheckResult plus(LimitCheck check, CheckResult result, long held) {
		List<Bandwidth> bandwidths = check.policy().limit().bandwidths();
		List<BandwidthResult> found = result.bandwidths();
		List<BandwidthResult> more = new ArrayList<>(found.size());
		for (int b = 0; b < found.size(); b++) {
			BandwidthResult r = found.get(b);
			long remaining = Math.min(bandwidths.get(b).capacity(), r.remaining() + held);
			more.add(
					new BandwidthResult(remaining, r.millisUntilCost(), r.millisUntilFull(), r.millisUntilCostAgain()));
		}
		return new CheckResult(result.hadTokens(), more);
	}

}
