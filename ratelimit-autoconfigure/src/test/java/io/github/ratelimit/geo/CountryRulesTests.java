package io.github.ratelimit.geo;

import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import io.github.ratelimit.core.DenialReason;
import io.github.ratelimit.identity.AddressBits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class CountryRulesTests {

	private final Map<String, String> countries = Map.of("203.0.113.7", "CN", "198.51.100.7", "DE");

	private final CountryLookup lookup = (address) -> this.countries.get(address.toString());

	@Test
	void aDenyListRefusesItsCountriesOnly() {
		CountryRules rules = new CountryRules(this.lookup, Set.of(), Set.of("cn"), UnknownCountry.ALLOW);
		assertThat(rules.screen(address("203.0.113.7"))).isEqualTo(DenialReason.GEO);
		assertThat(rules.screen(address("198.51.100.7"))).isNull();
		assertThat(rules.screen(address("192.0.2.1"))).isNull();
	}

	@Test
	void anAllowListRefusesEveryOtherCountry() {
		CountryRules rules = new CountryRules(this.lookup, Set.of("DE"), Set.of(), UnknownCountry.ALLOW);
		assertThat(rules.screen(address("203.0.113.7"))).isEqualTo(DenialReason.GEO);
		assertThat(rules.screen(address("198.51.100.7"))).isNull();
	}

	@Test
	void anUnknownCountryGetsTheConfiguredChoice() {
		assertThat(
				new CountryRules(this.lookup, Set.of(), Set.of("CN"), UnknownCountry.DENY).screen(address("192.0.2.1")))
			.isEqualTo(DenialReason.GEO);
		assertThat(new CountryRules(this.lookup, Set.of("DE"), Set.of(), UnknownCountry.ALLOW)
			.screen(address("192.0.2.1"))).isNull();
	}

	@Test
	void aFailingLookupLetsTheRequestThrough() {
		CountryRules rules = new CountryRules((address) -> {
			throw new IllegalStateException("database closed");
		}, Set.of("DE"), Set.of(), UnknownCountry.DENY);
		assertThat(rules.screen(address("203.0.113.7"))).isNull();
	}

	@Test
	void takesAnAllowListOrADenyListNotBoth() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new CountryRules(this.lookup, Set.of("DE"), Set.of("CN"), UnknownCountry.ALLOW));
	}

	private static AddressBits address(String text) {
		AddressBits bits = AddressBits.parse(text);
		assertThat(bits).isNotNull();
		return bits;
	}

}
