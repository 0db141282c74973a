package io.github.ratelimit.load;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Priorities by name or number.
 */
class PriorityTests {

	@Test
	void readsNamesAndNumbers() {
		assertThat(Priority.parse("Low")).isEqualTo(Priority.LOW);
		assertThat(Priority.parse(" critical ")).isEqualTo(Priority.CRITICAL);
		assertThat(Priority.parse("60")).isEqualTo(new Priority(60));
		assertThat(Priority.parse("75")).hasToString("high");
		assertThat(new Priority(60)).hasToString("60");
		assertThat(Priority.parse("100").critical()).isTrue();
		assertThat(Priority.HIGH.critical()).isFalse();
	}

	@Test
	void rejectsAnythingElse() {
		assertThatIllegalArgumentException().isThrownBy(() -> Priority.parse("urgent"))
			.withMessageContaining("low, normal, high, critical or a number from 0 to 100");
		assertThatIllegalArgumentException().isThrownBy(() -> Priority.parse("101"));
		assertThatIllegalArgumentException().isThrownBy(() -> Priority.parse("-1"));
	}

}
