package io.github.ratelimit.load;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Priority shedding in steps: the lowest priorities go first as the load rises, critical
 * traffic never; a request's priority is the higher of its tier's and its group's.
 */
class LoadShedderTests {

	private final AtomicReference<Double> load = new AtomicReference<>(0.0);

	private final LoadShedder shedder = new LoadShedder(this.load::get,
			Map.of("anonymous", Priority.LOW, "premium", Priority.HIGH),
			Map.of("checkout", Priority.CRITICAL, "search", Priority.LOW),
			List.of(new LoadShedder.Step(Priority.NORMAL, new Threshold(0.9, 0.8)),
					new LoadShedder.Step(Priority.LOW, new Threshold(0.7, 0.6)),
					new LoadShedder.Step(Priority.HIGH, new Threshold(0.97, 0.87))),
			Duration.ofMillis(1500));

	@Test
	void shedsTheLowestPrioritiesFirstAndCriticalNever() {
		assertThat(this.shedder.shed("anonymous", "default")).isNull();
		this.load.set(0.75);
		assertThat(this.shedder.shed("anonymous", "default")).isEqualTo(Priority.LOW);
		assertThat(this.shedder.shed("authenticated", "default")).isNull();
		this.load.set(0.92);
		assertThat(this.shedder.shed("authenticated", "default")).isEqualTo(Priority.NORMAL);
		assertThat(this.shedder.shed("premium", "default")).isNull();
		this.load.set(1.0);
		assertThat(this.shedder.shed("premium", "search")).isEqualTo(Priority.HIGH);
		assertThat(this.shedder.shed("anonymous", "checkout")).isNull();
		this.load.set(0.5);
		assertThat(this.shedder.shed("anonymous", "default")).isNull();
	}

	@Test
	void aRequestHasTheHigherOfItsTiersAndItsGroupsPriority() {
		assertThat(this.shedder.priority("premium", "search")).isEqualTo(Priority.HIGH);
		assertThat(this.shedder.priority("anonymous", "checkout")).isEqualTo(Priority.CRITICAL);
		assertThat(this.shedder.priority("anonymous", "default")).isEqualTo(Priority.LOW);
		assertThat(this.shedder.priority("authenticated", "search")).isEqualTo(Priority.LOW);
		assertThat(this.shedder.priority("authenticated", "default")).isEqualTo(Priority.NORMAL);
	}

	@Test
	void retryAfterIsInWholeSecondsRoundedUp() {
		assertThat(this.shedder.retryAfterSeconds()).isEqualTo(2);
	}

	@Test
	void noStepShedsCriticalTraffic() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new LoadShedder.Step(Priority.CRITICAL, new Threshold(0.99, 0.9)));
	}

}
