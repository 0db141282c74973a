package io.github.ratelimit.storage.redis.connection;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;

import io.github.ratelimit.storage.redis.connection.CircuitBreaker.State;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Tests for {@link CircuitBreaker}, with a hand-driven clock.
 */
class CircuitBreakerTests {

	private final AtomicLong now = new AtomicLong(1_000_000_000L);

	private final CircuitBreaker breaker = new CircuitBreaker(3, Duration.ofSeconds(1), this.now::get);

	@Test
	void startsClosedAndLetsCallsThrough() {
		assertThat(this.breaker.state()).isEqualTo(State.CLOSED);
		assertThat(this.breaker.tryAcquire()).isTrue();
	}

	@Test
	void opensAfterTheThresholdOfConsecutiveFailures() {
		fail(2);
		assertThat(this.breaker.state()).isEqualTo(State.CLOSED);
		fail(1);
		assertThat(this.breaker.state()).isEqualTo(State.OPEN);
		assertThat(this.breaker.tryAcquire()).isFalse();
	}

	@Test
	void aSuccessResetsTheCountOfFailures() {
		fail(2);
		this.breaker.recordSuccess();
		fail(2);
		assertThat(this.breaker.state()).isEqualTo(State.CLOSED);
	}

	@Test
	void refusesCallsUntilTheCoolDownHasPassed() {
		fail(3);
		advance(Duration.ofMillis(999));
		assertThat(this.breaker.tryAcquire()).isFalse();
		assertThat(this.breaker.state()).isEqualTo(State.OPEN);
	}

	@Test
	void letsExactlyOneProbeThroughAfterTheCoolDown() {
		fail(3);
		advance(Duration.ofSeconds(1));
		assertThat(this.breaker.tryAcquire()).isTrue();
		assertThat(this.breaker.state()).isEqualTo(State.HALF_OPEN);
		assertThat(this.breaker.tryAcquire()).isFalse();
		assertThat(this.breaker.tryAcquire()).isFalse();
	}

	@Test
	void closesWhenTheProbeSucceeds() {
		fail(3);
		advance(Duration.ofSeconds(1));
		this.breaker.tryAcquire();
		this.breaker.recordSuccess();
		assertThat(this.breaker.state()).isEqualTo(State.CLOSED);
		assertThat(this.breaker.tryAcquire()).isTrue();
		fail(2);
		assertThat(this.breaker.state()).as("failures counted afresh").isEqualTo(State.CLOSED);
	}

	@Test
	void reopensForAnotherCoolDownWhenTheProbeFails() {
		fail(3);
		advance(Duration.ofSeconds(1));
		this.breaker.tryAcquire();
		advance(Duration.ofMillis(200));
		this.breaker.recordFailure();
		assertThat(this.breaker.state()).isEqualTo(State.OPEN);
		advance(Duration.ofMillis(999));
		assertThat(this.breaker.tryAcquire()).isFalse();
		advance(Duration.ofMillis(1));
		assertThat(this.breaker.tryAcquire()).isTrue();
	}

	@Test
	void letsAnotherProbeThroughWhenTheFirstNeverReports() {
		fail(3);
		advance(Duration.ofSeconds(1));
		assertThat(this.breaker.tryAcquire()).isTrue();
		advance(Duration.ofSeconds(1));
		assertThat(this.breaker.tryAcquire()).isTrue();
		assertThat(this.breaker.state()).isEqualTo(State.HALF_OPEN);
	}

	@Test
	void ignoresLateOutcomesOfCallsStartedBeforeItOpened() {
		fail(3);
		this.breaker.recordSuccess();
		this.breaker.recordFailure();
		assertThat(this.breaker.state()).isEqualTo(State.OPEN);
		advance(Duration.ofMillis(500));
		this.breaker.recordFailure();
		advance(Duration.ofMillis(500));
		assertThat(this.breaker.tryAcquire()).as("a late failure does not extend the cool-down").isTrue();
	}

	@Test
	void rejectsNonsensicalSettings() {
		assertThatIllegalArgumentException().isThrownBy(() -> new CircuitBreaker(0, Duration.ofSeconds(1)));
		assertThatIllegalArgumentException().isThrownBy(() -> new CircuitBreaker(1, Duration.ZERO));
	}

	@Test
	void defaultsToFiveFailuresAndOneSecond() {
		CircuitBreaker defaults = new CircuitBreaker();
		for (int i = 0; i < 4; i++) {
			defaults.recordFailure();
		}
		assertThat(defaults.state()).isEqualTo(State.CLOSED);
		defaults.recordFailure();
		assertThat(defaults.state()).isEqualTo(State.OPEN);
		assertThat(CircuitBreaker.DEFAULT_COOL_DOWN).isEqualTo(Duration.ofSeconds(1));
	}

	private void fail(int times) {
		for (int i = 0; i < times; i++) {
			assertThat(this.breaker.tryAcquire()).isTrue();
			this.breaker.recordFailure();
		}
	}

	private void advance(Duration duration) {
		this.now.addAndGet(duration.toNanos());
	}

}
