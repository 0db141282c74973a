package io.github.ratelimit.policy;

import java.time.Duration;
import java.time.ZoneId;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class LimitParserTests {

	@Test
	void parsesSeveralBandwidthsThatAllApply() {
		Limit limit = LimitParser.parse("50/1m, 500/1h");
		assertThat(limit.bandwidths()).containsExactly(new TokenBucket(50, 50, Duration.ofMinutes(1), "1m"),
				new TokenBucket(500, 500, Duration.ofHours(1), "1h"));
		assertThat(limit.spec()).isEqualTo("50/1m, 500/1h");
	}

	@Test
	void burstRaisesCapacityAboveTheRefill() {
		TokenBucket bandwidth = (TokenBucket) LimitParser.parse("100/1m burst 150").bandwidths().get(0);
		assertThat(bandwidth.capacity()).isEqualTo(150);
		assertThat(bandwidth.refillTokens()).isEqualTo(100);
	}

	@Test
	void zeroBlocks() {
		assertThat(LimitParser.parse("0").blocked()).isTrue();
		assertThat(LimitParser.parse(" 0 ").blocked()).isTrue();
	}

	@Test
	void unitWithoutAmountMeansOne() {
		assertThat(((TokenBucket) LimitParser.parse("10/s").bandwidths().get(0)).period())
			.isEqualTo(Duration.ofSeconds(1));
		assertThat(LimitParser.parse("10/15m").bandwidths().get(0).windowSeconds()).isEqualTo(900);
	}

	@Test
	void rejectsMalformedLimitsWithAReason() {
		assertThatIllegalArgumentException().isThrownBy(() -> LimitParser.parse("fifty per minute"))
			.withMessageContaining("N/<duration>");
		assertThatIllegalArgumentException().isThrownBy(() -> LimitParser.parse("50/1y"))
			.withMessageContaining("unknown duration unit 'y'");
		assertThatIllegalArgumentException().isThrownBy(() -> LimitParser.parse("50/1m,"));
		assertThatIllegalArgumentException().isThrownBy(() -> LimitParser.parse(""));
		assertThatIllegalArgumentException().isThrownBy(() -> LimitParser.parse("0/1m"))
			.withMessageContaining("use 0 alone to block");
		assertThatIllegalArgumentException().isThrownBy(() -> LimitParser.parse("10/1m burst 5"))
			.withMessageContaining("burst");
		assertThatIllegalArgumentException().isThrownBy(() -> LimitParser.parse("10/0s"));
		assertThatIllegalArgumentException().isThrownBy(() -> LimitParser.parse("99999999999999/1m"));
	}

	@Test
	void calendarQuotasSitBesideRatesInTheConfiguredZone() {
		ZoneId berlin = ZoneId.of("Europe/Berlin");
		Limit limit = LimitParser.parse("100/1m, 10000/Month, 500/day, 2000/week", berlin);
		assertThat(limit.spec()).isEqualTo("100/1m, 10000/month, 500/day, 2000/week");
		assertThat(limit.bandwidths()).containsExactly(new TokenBucket(100, 100, Duration.ofMinutes(1), "1m"),
				new CalendarQuota(10000, CalendarPeriod.MONTH, berlin),
				new CalendarQuota(500, CalendarPeriod.DAY, berlin),
				new CalendarQuota(2000, CalendarPeriod.WEEK, berlin));
		assertThat(limit.bandwidths().get(1).windowSeconds()).isEqualTo(30 * 86400);
	}

	@Test
	void concurrencyCapIsOnePermitPerRequestWhateverTheCost() {
		Limit limit = LimitParser.parse("10/1m, 2 concurrent");
		assertThat(limit.bandwidths().get(1)).isEqualTo(new ConcurrencyLimit(2));
		assertThat(limit.bandwidths().get(1).unit()).isEqualTo("concurrent-requests");
		// a request costing 5 still fits: it takes one permit and 5 of the 10 tokens
		assertThat(limit.maxCost()).isEqualTo(10);
		assertThat(LimitParser.parse("3 concurrent").maxCost()).isEqualTo(Long.MAX_VALUE);
	}

	@Test
	void rejectsMalformedKindsWithAReason() {
		assertThatIllegalArgumentException().isThrownBy(() -> LimitParser.parse("0 concurrent"))
			.withMessageContaining("between 1 and 1000");
		assertThatIllegalArgumentException().isThrownBy(() -> LimitParser.parse("2 concurrent, 3 concurrent"))
			.withMessageContaining("at most one concurrency cap");
		assertThatIllegalArgumentException().isThrownBy(() -> LimitParser.parse("10/year"))
			.withMessageContaining("N/month");
		assertThatIllegalArgumentException().isThrownBy(() -> LimitParser.parse("0/month"))
			.withMessageContaining("between 1 and");
	}

	@Test
	void parsesWindowsAndLeakyBuckets() {
		Limit limit = LimitParser
			.parse("100/1m fixed, 100/1M Sliding Window, 10/s leaky bucket, 5/2s leaky, 20/1h fixed window");
		assertThat(limit.bandwidths()).containsExactly(new FixedWindow(100, Duration.ofMinutes(1), "1m"),
				new SlidingWindow(100, Duration.ofMinutes(1), "1m"), new LeakyBucket(10, Duration.ofSeconds(1), "1s"),
				new LeakyBucket(5, Duration.ofSeconds(2), "2s"), new FixedWindow(20, Duration.ofHours(1), "1h"));
		assertThat(limit.spec()).isEqualTo("100/1m fixed, 100/1m sliding, 10/1s leaky, 5/2s leaky, 20/1h fixed");
		assertThat(LimitParser.parse(limit.spec())).isEqualTo(limit);
		assertThat(limit.bandwidths()).extracting(Bandwidth::quota).containsExactly(100L, 100L, 10L, 5L, 20L);
		assertThat(limit.bandwidths()).extracting(Bandwidth::windowSeconds).containsExactly(60L, 60L, 1L, 2L, 3600L);
		// a leaky bucket lets at most a period's slots go at once
		assertThat(limit.maxCost()).isEqualTo(5);
		assertThat(LimitParser.parse("100/1m sliding").maxCost()).isEqualTo(100);
		assertThat(limit.has(WindowQuota.class)).isTrue();
		assertThat(LimitParser.parse("100/1m sliding, 10/1s leaky").has(WindowQuota.class)).isFalse();
	}

	@Test
	void aFixedWindowIsAlignedOnTheEpoch() {
		FixedWindow window = (FixedWindow) LimitParser.parse("10/15m fixed").bandwidths().get(0);
		long quarter = 15 * 60_000;
		assertThat(window.window(7 * quarter + 1))
			.isEqualTo(new CalendarQuota.Window(7 * quarter, 8 * quarter, 9 * quarter));
		assertThat(window.window(8 * quarter - 1).end()).isEqualTo(8 * quarter);
		assertThat(window.window(8 * quarter).start()).isEqualTo(8 * quarter);
		assertThat(new FixedWindow(1, Duration.ofMillis(1500), "1500ms").windowSeconds()).isEqualTo(2);
	}

	@Test
	void rejectsMalformedWindowsAndLeakyBucketsWithAReason() {
		assertThatIllegalArgumentException().isThrownBy(() -> LimitParser.parse("100/1m rolling"))
			.withMessageContaining("fixed | sliding | leaky");
		assertThatIllegalArgumentException().isThrownBy(() -> LimitParser.parse("100/1m burst 150 sliding"));
		assertThatIllegalArgumentException().isThrownBy(() -> LimitParser.parse("100/1m sliding burst 150"));
		assertThatIllegalArgumentException().isThrownBy(() -> LimitParser.parse("100/1m leaky window"));
		assertThatIllegalArgumentException().isThrownBy(() -> LimitParser.parse("100/1m fixed bucket"));
		assertThatIllegalArgumentException().isThrownBy(() -> LimitParser.parse("100/day sliding"));
		assertThatIllegalArgumentException().isThrownBy(() -> LimitParser.parse("0/1m fixed"))
			.withMessageContaining("use 0 alone to block");
		assertThatIllegalArgumentException().isThrownBy(() -> LimitParser.parse("10/0s leaky"))
			.withMessageContaining("positive");
		assertThatIllegalArgumentException().isThrownBy(() -> LimitParser.parse("200000000/1d sliding"))
			.withMessageContaining("2^53");
		// the same rate is fine as a token bucket: a leaky bucket keeps up to 30 s of
		// max-wait queued besides a period
		assertThat(LimitParser.parse("1000000000000/1ms").blocked()).isFalse();
		assertThatIllegalArgumentException().isThrownBy(() -> LimitParser.parse("1000000000000/1ms leaky"))
			.withMessageContaining("too high a rate for a leaky bucket");
	}

	@Test
	void refillTimeIsExactAndRoundsUp() {
		TokenBucket bandwidth = (TokenBucket) LimitParser.parse("50/1m").bandwidths().get(0);
		assertThat(bandwidth.millisToRefill(1)).isEqualTo(1200);
		assertThat(bandwidth.millisToRefill(50)).isEqualTo(60_000);
		TokenBucket odd = (TokenBucket) LimitParser.parse("7/1s").bandwidths().get(0);
		assertThat(odd.millisToRefill(1)).isEqualTo(143);
	}

}
