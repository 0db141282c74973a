package io.github.ratelimit.storage.bucket4j;

import java.time.Duration;

import io.github.bucket4j.Bucket;
import io.github.bucket4j.BucketState;
import org.junit.jupiter.api.Test;

import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.LimitParser;
import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.storage.BandwidthResult;
import io.github.ratelimit.storage.CheckResult;
import io.github.ratelimit.storage.LimitCheck;
import io.github.ratelimit.test.ManualTimeMeter;

import static org.assertj.core.api.Assertions.assertThat;

class BucketResultsTests {

	private final LimitCheck check = LimitCheck
		.enforced(new Policy("t", Dimension.USER, "default", LimitParser.parse("10/1m, 100/1h")), "rl:k", 2);

	@Test
	void reportsWhatWasLeftAndTheWaits() {
		CheckResult result = BucketResults.of(this.check, true, stateWith(3, 50), 0);
		assertThat(result.hadTokens()).isTrue();
		assertThat(result.bandwidths()).containsExactly(new BandwidthResult(3, 0, 42_000, 0),
				new BandwidthResult(50, 0, 1_800_000, 0));
	}

	@Test
	void refusedBucketWhoseStateShowsEnoughStillNamesAShortBandwidth() {
		// Bucket4j refused, but the state it returned (read with a batch, or refilled or
		// refunded since) shows
		// enough tokens: the core must still be told which bandwidth refused, or it
		// cannot explain the 429
		CheckResult result = BucketResults.of(this.check, false, stateWith(5, 4), 0);
		assertThat(result.hadTokens()).isFalse();
		assertThat(result.bandwidths().get(1).wasShort()).as("the emptier bandwidth").isTrue();
		assertThat(result.bandwidths().get(0).wasShort()).isFalse();
	}

	@Test
	void tokensGivenBackCountAsLeftButNeverAboveCapacity() {
		CheckResult result = BucketResults.of(this.check, true, stateWith(9, 50), 2);
		assertThat(result.bandwidths().get(0).remaining()).isEqualTo(10);
		assertThat(result.bandwidths().get(1).remaining()).isEqualTo(52);
	}

	private BucketState stateWith(long minute, long hour) {
		Bucket bucket = Bucket.builder()
			.addLimit((limit) -> limit.capacity(10).refillGreedy(10, Duration.ofMinutes(1)).initialTokens(minute))
			.addLimit((limit) -> limit.capacity(100).refillGreedy(100, Duration.ofHours(1)).initialTokens(hour))
			.withCustomTimePrecision(new ManualTimeMeter())
			.build();
		return bucket.asVerbose().getAvailableTokens().getState();
	}

}
