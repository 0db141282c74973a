package io.github.ratelimit.core;

import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.github.ratelimit.policy.Dimension;
import io.github.ratelimit.policy.LimitParser;
import io.github.ratelimit.policy.Policy;
import io.github.ratelimit.storage.BandwidthResult;
import io.github.ratelimit.storage.CheckResult;
import io.github.ratelimit.storage.LimitCheck;
import io.github.ratelimit.storage.StoreDecision;
import io.github.ratelimit.test.ManualTimeMeter;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The remembered refusals are bounded: when full, the expired ones and then those nearest
 * to their end make room.
 */
class LocalRefusalsTests {

	private final ManualTimeMeter time = new ManualTimeMeter(Instant.parse("2026-03-01T10:00:00Z"));

	private final Policy policy = new Policy("test", Dimension.IP, "default", LimitParser.parse("5/1h"));

	private void refuse(LocalRefusals refusals, String key, long waitMillis) {
		LimitCheck check = LimitCheck.enforced(this.policy, key, 1);
		refusals.remember(List.of(check), new StoreDecision(false,
				List.of(new CheckResult(false, List.of(new BandwidthResult(0, waitMillis, waitMillis, waitMillis))))),
				this.time.millis());
	}

	private boolean remembered(LocalRefusals refusals, String key) {
		return refusals.shortage(LimitCheck.enforced(this.policy, key, 1), this.time.millis()) != null;
	}

	@Test
	void aFullMapDropsTheRefusalsNearestToTheirEnd() {
		LocalRefusals refusals = new LocalRefusals(100, this.time);
		for (int i = 1; i <= 100; i++) {
			refuse(refusals, "k" + i, i * 1000L);
		}
		assertThat(refusals.size()).isEqualTo(100);
		refuse(refusals, "new", 500_000);
		assertThat(refusals.size()).isLessThanOrEqualTo(100);
		assertThat(remembered(refusals, "new")).isTrue();
		assertThat(remembered(refusals, "k1")).isFalse();
		assertThat(remembered(refusals, "k100")).isTrue();
		for (int i = 0; i < 10_000; i++) {
			refuse(refusals, "flood" + i, 60_000);
		}
		assertThat(refusals.size()).isLessThanOrEqualTo(100);
	}

}
