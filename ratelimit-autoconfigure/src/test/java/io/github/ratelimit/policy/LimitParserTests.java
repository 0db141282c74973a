package io.github.ratelimit.policy;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class LimitParserTests {

	@Test
	void parsesSeveralBandwidthsThatAllApply() {
		Limit limit = LimitParser.parse("50/1m, 500/1h");
		assertThat(limit.bandwidths()).containsExactly(new Bandwidth(50, 50, Duration.ofMinutes(1), "1m"),
				new Bandwidth(500, 500, Duration.ofHours(1), "1h"));
		assertThat(limit.spec()).isEqualTo("50/1m, 500/1h");
	}

	@Test
	void burstRaisesCapacityAboveTheRefill() {
		Bandwidth bandwidth = LimitParser.parse("100/1m burst 150").bandwidths().get(0);
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
		assertThat(LimitParser.parse("10/s").bandwidths().get(0).period()).isEqualTo(Duration.ofSeconds(1));
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
	void calendarQuotasAreNotSilentlyAccepted() {
		assertThatIllegalArgumentException().isThrownBy(() -> LimitParser.parse("1000/month"))
			.withMessageContaining("calendar quotas");
	}

	@Test
	void refillTimeIsExactAndRoundsUp() {
		Bandwidth bandwidth = LimitParser.parse("50/1m").bandwidths().get(0);
		assertThat(bandwidth.millisToRefill(1)).isEqualTo(1200);
		assertThat(bandwidth.millisToRefill(50)).isEqualTo(60_000);
		Bandwidth odd = LimitParser.parse("7/1s").bandwidths().get(0);
		assertThat(odd.millisToRefill(1)).isEqualTo(143);
	}

}
