package io.github.ratelimit.control;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;

import org.junit.jupiter.api.Test;

import io.github.ratelimit.identity.CidrRange;
import io.github.ratelimit.identity.ClientIpResolver;
import io.github.ratelimit.identity.CredentialHashes;
import io.github.ratelimit.policy.Dimension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * What an operator types into the {@code ratelimits} endpoint, read as the limiter keys
 * it, or refused with the field and a valid value.
 */
class OperatorInputTests {

	private static final Instant NOW = Instant.parse("2026-03-01T10:00:00.123456Z");

	private final OperatorInput input = new OperatorInput(new ClientIpResolver(CidrRange.DEFAULT_TRUSTED_PROXIES,
			ClientIpResolver.DEFAULT_IPV4_PREFIX, ClientIpResolver.DEFAULT_IPV6_PREFIX),
			Clock.fixed(NOW, ZoneOffset.UTC));

	@Test
	void anAddressIsNamedByTheGroupTheLimiterCountsItIn() {
		Subject v6 = this.input.identity("ip", "2001:db8:5::1");
		assertThat(v6).isEqualTo(Subject.of(Dimension.IP, "2001:db8:5::/64"));
		assertThat(v6.banKey()).isEqualTo("ip:2001:db8:5::/64");
		assertThat(this.input.banned("2001:db8:5::9")).isEqualTo(v6);
		assertThat(this.input.banned("ip:198.51.100.7").banKey()).isEqualTo("ip:198.51.100.7");
	}

	@Test
	void aKeyIsNamedByItsTokenIdWhicheverWayItWasGiven() {
		String sha256 = "a".repeat(64);
		Subject key = this.input.identity("KEY", sha256);
		assertThat(key.dimension()).isEqualTo(Dimension.TOKEN);
		assertThat(key.value()).isEqualTo(CredentialHashes.tokenIdOfSha256(sha256));
		assertThat(this.input.identity("token", key.value())).isEqualTo(key);
		assertThat(this.input.banned("key:" + sha256).banKey()).isEqualTo("key:" + key.value());
	}

	@Test
	void aRuleSubjectIsTheAddressOrRangeItselfNotItsGroup() {
		assertThat(this.input.ruled("198.51.100.0/24").range()).isNotNull();
		assertThat(this.input.ruled(" user:alice ")).isEqualTo(Subject.of(Dimension.USER, "alice"));
	}

	@Test
	void everyBadSubjectNamesItsField() {
		assertThatExceptionOfType(InvalidControlInputException.class)
			.isThrownBy(() -> this.input.identity("planet", "acme"))
			.satisfies((ex) -> assertThat(ex.getField()).isEqualTo("dimension"));
		assertThatExceptionOfType(InvalidControlInputException.class)
			.isThrownBy(() -> this.input.identity("user", null))
			.satisfies((ex) -> assertThat(ex.getReason()).isEqualTo("a value is required"));
		assertThatExceptionOfType(InvalidControlInputException.class)
			.isThrownBy(() -> this.input.identity("ip", "198.51.100.0/24"))
			.satisfies((ex) -> assertThat(ex.getReason()).contains("is not a group clients are counted in"));
		assertThatExceptionOfType(InvalidControlInputException.class)
			.isThrownBy(() -> this.input.identity("key", "my-secret-key"))
			.satisfies((ex) -> assertThat(ex.getReason()).contains("never the key itself"));
		assertThatExceptionOfType(InvalidControlInputException.class).isThrownBy(() -> this.input.banned("user:"))
			.satisfies((ex) -> assertThat(ex.getField()).isEqualTo("subject"));
		assertThatExceptionOfType(InvalidControlInputException.class).isThrownBy(() -> this.input.ruled("nobody"))
			.satisfies((ex) -> assertThat(ex.getExample()).isEqualTo(OperatorInput.SUBJECT_EXAMPLE));
	}

	@Test
	void anAllowRuleTakesItsTierApartOrAfterAs() {
		AccessRule written = this.input.rule(AccessRule.Access.ALLOW, "user:bot as partner", null, "1h");
		assertThat(written.spec()).isEqualTo("user:bot as partner");
		assertThat(written.expiresAt()).isEqualTo(Instant.parse("2026-03-01T11:00:00.123Z"));
		assertThat(this.input.rule(AccessRule.Access.ALLOW, "user:bot", "partner", null))
			.isEqualTo(new AccessRule(AccessRule.Access.ALLOW, Subject.of(Dimension.USER, "bot"), "partner", null));
	}

	@Test
	void aDenyRuleTakesNoTier() {
		assertThatExceptionOfType(InvalidControlInputException.class)
			.isThrownBy(() -> this.input.rule(AccessRule.Access.DENY, "user:bot", "partner", null))
			.satisfies((ex) -> assertThat(ex.getField()).isEqualTo("tier"));
	}

	@Test
	void anExpiryIsADurationInBootsFormsOrAnInstantToTheMillisecond() {
		Instant now = Instant.parse("2026-03-01T10:00:00.123Z");
		assertThat(this.input.expiry("30m")).isEqualTo(now.plus(Duration.ofMinutes(30)));
		assertThat(this.input.expiry("7D")).isEqualTo(now.plus(Duration.ofDays(7)));
		assertThat(this.input.expiry("PT1H")).isEqualTo(now.plus(Duration.ofHours(1)));
		assertThat(this.input.expiry("5000")).as("milliseconds, as Boot reads a bare number")
			.isEqualTo(now.plusSeconds(5));
		assertThat(this.input.expiry("2030-01-01T00:00:00.9999Z")).isEqualTo(Instant.parse("2030-01-01T00:00:00.999Z"));
		assertThat(this.input.expiry(" ")).isNull();
		assertThat(this.input.expiry(null)).isNull();
	}

	@Test
	void aBadExpiryIsRefusedWithItsReason() {
		assertThatExceptionOfType(InvalidControlInputException.class).isThrownBy(() -> this.input.expiry("-1h"))
			.withMessageContaining("must be positive");
		assertThatExceptionOfType(InvalidControlInputException.class)
			.isThrownBy(() -> this.input.expiry("99999999999d"))
			.withMessageContaining("at most 3650 days ahead");
		assertThatExceptionOfType(InvalidControlInputException.class)
			.isThrownBy(() -> this.input.expiry("9999999999999999999d"))
			.withMessageContaining("a duration from now (30m, 1h, 7d, PT1H) or an ISO-8601 instant");
		assertThatExceptionOfType(InvalidControlInputException.class)
			.isThrownBy(() -> this.input.expiry("2020-01-01T00:00:00Z"))
			.withMessageContaining("must lie in the future");
		assertThatExceptionOfType(InvalidControlInputException.class).isThrownBy(() -> this.input.expiry("1 h"))
			.satisfies((ex) -> assertThat(ex.getField()).isEqualTo("expires"));
	}

}
