package io.github.ratelimit.load;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * A threshold with hysteresis: entered at its level, left only below the lower one.
 */
class ThresholdTests {

	@Test
	void isEnteredAtItsLevelAndLeftOnlyBelowTheLowerOne() {
		Threshold threshold = new Threshold(0.9, 0.7);
		assertThat(threshold.crossed(0.89)).isFalse();
		assertThat(threshold.crossed(0.9)).isTrue();
		assertThat(threshold.crossed(0.8)).isTrue();
		assertThat(threshold.crossed(0.7)).isTrue();
		assertThat(threshold.crossed(0.69)).isFalse();
		assertThat(threshold.crossed(0.8)).as("below the level again: not entered").isFalse();
	}

	@Test
	void rejectsLevelsOutOfOrderOrRange() {
		assertThatIllegalArgumentException().isThrownBy(() -> new Threshold(0.5, 0.6));
		assertThatIllegalArgumentException().isThrownBy(() -> new Threshold(0, 0));
		assertThatIllegalArgumentException().isThrownBy(() -> new Threshold(1.1, 0.5));
	}

}
