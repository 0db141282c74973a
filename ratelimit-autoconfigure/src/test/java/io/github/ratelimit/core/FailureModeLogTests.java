package io.github.ratelimit.core;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import io.github.ratelimit.storage.StoreUnavailableException.Kind;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A decision taken by the failure mode is never silent: a WARN saying why and what it
 * did, at most one a period with the number of decisions it covers.
 */
@ExtendWith(OutputCaptureExtension.class)
class FailureModeLogTests {

	private final MovingClock clock = new MovingClock();

	@Test
	void theFirstFailureIsLoggedAtOnceWithItsCauseAndWhatTheFailureModeDid(CapturedOutput output) {
		FailureModeLog log = new FailureModeLog(FailureMode.LOCAL, this.clock);
		log.record(Kind.REFUSED, "Redis refused: OOM command not allowed when used memory > 'maxmemory'.");
		assertThat(output).contains("WARN")
			.contains(
					"Rate-limit store failed (refused: Redis refused: OOM command not allowed when used memory > 'maxmemory'.)")
			.contains(
					"failure mode local: requests are limited by this instance's own buckets, enforcement is per instance")
			.contains("(1 decision since the last line)");
	}

	@Test
	void atMostOneLinePerIntervalCountingTheDecisionsItCovers(CapturedOutput output) {
		FailureModeLog log = new FailureModeLog(FailureMode.OPEN, this.clock);
		log.record(Kind.TIMEOUT, "Redis answered nothing for 1000 ms");
		for (int i = 0; i < 99; i++) {
			this.clock.advance(Duration.ofMillis(50));
			log.record(Kind.CIRCUIT_OPEN, "Redis circuit breaker is open");
		}
		assertThat(lines(output)).isOne();
		this.clock.advance(FailureModeLog.LINE_INTERVAL);
		log.record(Kind.CIRCUIT_OPEN, "Redis circuit breaker is open");
		assertThat(lines(output)).isEqualTo(2);
		// the breaker's refusals name what opened it
		assertThat(output)
			.contains("(circuit-open: Redis circuit breaker is open after: Redis answered nothing for 1000 ms)")
			.contains("requests are admitted without limits, enforcement is off")
			.contains("(100 decisions since the last line)");
		assertThat(log.total()).isEqualTo(101);
	}

	@Test
	void theLastFailureIsRecentForTenSeconds() {
		FailureModeLog log = new FailureModeLog(FailureMode.CLOSED, this.clock);
		assertThat(log.recent()).isNull();
		log.record(Kind.NOT_CONNECTED, "Not connected to Redis");
		assertThat(log.recent())
			.isEqualTo(new FailureModeLog.Failure(Kind.NOT_CONNECTED, "Not connected to Redis", this.clock.instant()));
		this.clock.advance(FailureModeLog.RECENT.minusMillis(1));
		assertThat(log.recent()).isNotNull();
		this.clock.advance(Duration.ofMillis(1));
		assertThat(log.recent()).isNull();
	}

	private static long lines(CapturedOutput output) {
		return output.getOut().lines().filter((line) -> line.contains("Rate-limit store failed")).count();
	}

	private static final class MovingClock extends Clock {

		private Instant now = Instant.parse("2026-01-01T00:00:00Z");

		void advance(Duration duration) {
			this.now = this.now.plus(duration);
		}

		@Override
		public ZoneId getZone() {
			return ZoneOffset.UTC;
		}

		@Override
		public Clock withZone(ZoneId zone) {
			return this;
		}

		@Override
		public Instant instant() {
			return this.now;
		}

	}

}
