package io.github.ratelimit.client;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import io.github.ratelimit.policy.InvalidRateLimitConfigurationException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Settings that cannot work fail with the property they came from and a valid value.
 */
class ClientRetrySettingsTests {

	@Test
	void defaultsAreTheDocumentedOnes() {
		ClientRetrySettings defaults = ClientRetrySettings.DEFAULTS;

		assertThat(defaults.maxAttempts()).isEqualTo(4);
		assertThat(defaults.maxDelay()).isEqualTo(Duration.ofSeconds(30));
		assertThat(defaults.maxTotalWait()).isEqualTo(Duration.ofMinutes(2));
		assertThat(defaults.initialBackoff()).isEqualTo(Duration.ofMillis(500));
		assertThat(defaults.jitter()).isEqualTo(Duration.ofSeconds(1));
		assertThat(defaults.pacing()).isTrue();
		assertThat(defaults.breakerThreshold()).isEqualTo(5);
		assertThat(defaults.breakerOpenFor()).isEqualTo(Duration.ofSeconds(30));
		assertThat(defaults.warnRemainingPercent()).isEqualTo(10);
	}

	@Test
	void invalidValuesNameTheirProperty() {
		assertInvalid(() -> ClientRetrySettings.DEFAULTS.withMaxAttempts(0), "ratelimit.client.max-attempts", "4");
		assertInvalid(() -> ClientRetrySettings.DEFAULTS.withMaxDelay(Duration.ZERO), "ratelimit.client.max-delay",
				"30s");
		assertInvalid(() -> ClientRetrySettings.DEFAULTS.withMaxTotalWait(Duration.ofSeconds(-1)),
				"ratelimit.client.max-total-wait", "2m");
		assertInvalid(() -> ClientRetrySettings.DEFAULTS.withInitialBackoff(Duration.ZERO),
				"ratelimit.client.initial-backoff", "500ms");
		assertInvalid(() -> ClientRetrySettings.DEFAULTS.withJitter(Duration.ofMillis(-1)), "ratelimit.client.jitter",
				"1s");
		assertInvalid(() -> ClientRetrySettings.DEFAULTS.withBreaker(-1, Duration.ofSeconds(30)),
				"ratelimit.client.breaker-threshold", "5");
		assertInvalid(() -> ClientRetrySettings.DEFAULTS.withWarnRemainingPercent(101),
				"ratelimit.client.warn-remaining-percent", "10");
	}

	@Test
	void zeroTurnsTheBreakerTheHintAndTheJitterOff() {
		ClientRetrySettings settings = ClientRetrySettings.DEFAULTS.withBreaker(0, Duration.ZERO)
			.withWarnRemainingPercent(0)
			.withJitter(Duration.ZERO);

		assertThat(settings.breakerThreshold()).isZero();
		assertThat(settings.warnRemainingPercent()).isZero();
		assertThat(settings.jitter()).isZero();
	}

	private static void assertInvalid(Runnable settings, String property, String example) {
		assertThatExceptionOfType(InvalidRateLimitConfigurationException.class).isThrownBy(settings::run)
			.satisfies((exception) -> {
				assertThat(exception.getProperty()).isEqualTo(property);
				assertThat(exception.getExample()).isEqualTo(example);
			});
	}

}
