package io.github.ratelimit.core;

import java.time.Duration;
import java.time.Instant;

import org.junit.jupiter.api.Test;

import io.github.ratelimit.test.ManualTimeMeter;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The most refused callers in bounded memory: heavy callers are found among many light
 * ones, counts are exact once tracked, and periods roll over on the clock.
 */
class TopRefusedTests {

	private final ManualTimeMeter clock = new ManualTimeMeter(Instant.parse("2026-03-01T10:00:00Z"));

	private final TopRefused top = new TopRefused(10, Duration.ofMinutes(5), this.clock);

	@Test
	void heavyCallersAreFoundAmongManyLightOnesInBoundedMemory() {
		// 100 counters find every caller with more than 1/100 of the refusals: here
		// 11,200 refusals
		TopRefused top = new TopRefused(100, Duration.ofMinutes(5), this.clock);
		for (int i = 0; i < 10_000; i++) {
			top.record("ip:10.0." + (i >> 8 & 255) + "." + (i & 255));
			if (i % 10 == 0) {
				top.record("ip:203.0.113.66");
			}
			if (i % 50 == 0) {
				top.record("user:mallory");
			}
		}
		assertThat(top.current(1000)).hasSizeLessThanOrEqualTo(100);
		assertThat(top.current(2)).extracting(TopRefused.Entry::caller)
			.containsExactly("ip:203.0.113.66", "user:mallory");
		TopRefused.Entry heaviest = top.current(1).get(0);
		// never under-counted, over-counted by at most its error
		assertThat(heaviest.refusals()).isGreaterThanOrEqualTo(1000);
		assertThat(heaviest.refusals() - heaviest.error()).isLessThanOrEqualTo(1000);
		assertThat(top.currentTotal()).isEqualTo(10_000 + 1000 + 200);
	}

	@Test
	void countsAreExactWhileTheCallersFitAndPeriodsRollOver() {
		for (int i = 0; i < 3; i++) {
			this.top.record("user:alice");
		}
		this.top.record("ip:198.51.100.1");
		assertThat(this.top.current(10)).containsExactly(new TopRefused.Entry("user:alice", 3, 0),
				new TopRefused.Entry("ip:198.51.100.1", 1, 0));
		this.clock.advance(Duration.ofMinutes(5));
		this.top.record("user:bob");
		assertThat(this.top.last(10)).containsExactly(new TopRefused.Entry("user:alice", 3, 0),
				new TopRefused.Entry("ip:198.51.100.1", 1, 0));
		assertThat(this.top.lastTotal()).isEqualTo(4);
		assertThat(this.top.current(10)).containsExactly(new TopRefused.Entry("user:bob", 1, 0));
		// a quiet period in between: the last complete period had nobody
		this.clock.advance(Duration.ofMinutes(12));
		assertThat(this.top.last(10)).isEmpty();
		assertThat(this.top.current(10)).isEmpty();
	}

}
