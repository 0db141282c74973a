package io.github.ratelimit.load;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import io.github.ratelimit.test.ManualTimeMeter;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The share limits are in force at: the warm-up's ramp on an injected clock, adaptive
 * factors while loaded, and both together.
 */
class LimitFactorsTests {

	private final ManualTimeMeter clock = new ManualTimeMeter();

	private final AtomicReference<Double> load = new AtomicReference<>(0.0);

	@Test
	void theWarmUpRampsFromTheInitialShareToTheWholeInSteps() {
		LimitFactors factors = new LimitFactors(this.clock, Duration.ofSeconds(30), 0.25, null, null, Map.of());
		assertThat(factors.permille("anonymous", "default")).isEqualTo(250);
		this.clock.advance(Duration.ofSeconds(1));
		// 275 on the ramp, in steps of 50, never below the initial share
		assertThat(factors.permille("anonymous", "default")).isEqualTo(250);
		this.clock.advance(Duration.ofSeconds(14));
		assertThat(factors.permille("anonymous", "default")).isEqualTo(600);
		this.clock.advance(Duration.ofSeconds(15));
		assertThat(factors.permille("anonymous", "default")).isEqualTo(LimitFactors.WHOLE);
	}

	@Test
	void noWarmUpIsWholeFromTheStart() {
		LimitFactors factors = new LimitFactors(this.clock, Duration.ZERO, 0.25, null, null, Map.of());
		assertThat(factors.permille("anonymous", "default")).isEqualTo(LimitFactors.WHOLE);
	}

	@Test
	void adaptiveFactorsApplyWhileLoadedTheSmallerOfTierAndGroup() {
		LimitFactors factors = new LimitFactors(this.clock, Duration.ZERO, 0.25, this.load::get,
				new Threshold(0.8, 0.5), Map.of("anonymous", 0.5, "export", 0.2));
		assertThat(factors.permille("anonymous", "export")).isEqualTo(LimitFactors.WHOLE);
		this.load.set(0.85);
		assertThat(factors.permille("anonymous", "default")).isEqualTo(500);
		assertThat(factors.permille("premium", "export")).isEqualTo(200);
		assertThat(factors.permille("anonymous", "export")).isEqualTo(200);
		assertThat(factors.permille("premium", "default")).isEqualTo(LimitFactors.WHOLE);
		this.load.set(0.6);
		assertThat(factors.permille("anonymous", "default")).as("within the hysteresis").isEqualTo(500);
		this.load.set(0.4);
		assertThat(factors.permille("anonymous", "default")).isEqualTo(LimitFactors.WHOLE);
	}

	@Test
	void warmUpAndLoadCombine() {
		LimitFactors factors = new LimitFactors(this.clock, Duration.ofSeconds(30), 0.5, this.load::get,
				new Threshold(0.8, 0.5), Map.of("anonymous", 0.5));
		this.load.set(0.9);
		assertThat(factors.permille("anonymous", "default")).isEqualTo(250);
	}

}
