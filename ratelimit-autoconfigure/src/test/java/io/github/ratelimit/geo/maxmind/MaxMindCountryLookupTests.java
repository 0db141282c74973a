package io.github.ratelimit.geo.maxmind;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import io.github.ratelimit.identity.AddressBits;
import io.github.ratelimit.test.MmdbWriter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIOException;

/**
 * MaxMind's own reader reads the databases the tests write ({@link MmdbWriter}), and the
 * lookup finds each address's country.
 */
class MaxMindCountryLookupTests {

	private final byte[] database = new MmdbWriter().country("203.0.113.0/24", "CN")
		.country("198.51.100.0/25", "DE")
		.registeredCountry("192.0.2.0/24", "RU")
		.country("2001:db8:cc::/48", "FR")
		.toBytes();

	@Test
	void findsTheCountryOfIpv4AndIpv6Addresses() throws IOException {
		try (MaxMindCountryLookup lookup = MaxMindCountryLookup.read(new ByteArrayInputStream(this.database))) {
			assertThat(lookup.databaseType()).isEqualTo("Test-Country");
			assertThat(lookup.countryOf(address("203.0.113.0"))).isEqualTo("CN");
			assertThat(lookup.countryOf(address("203.0.113.255"))).isEqualTo("CN");
			assertThat(lookup.countryOf(address("198.51.100.127"))).isEqualTo("DE");
			assertThat(lookup.countryOf(address("2001:db8:cc:ffff::1"))).isEqualTo("FR");
			// the IPv4-mapped form of an address is the address
			assertThat(lookup.countryOf(address("::ffff:203.0.113.9"))).isEqualTo("CN");
		}
	}

	@Test
	void fallsBackToTheRegisteredCountry() throws IOException {
		try (MaxMindCountryLookup lookup = MaxMindCountryLookup.read(new ByteArrayInputStream(this.database))) {
			assertThat(lookup.countryOf(address("192.0.2.1"))).isEqualTo("RU");
		}
	}

	@Test
	void knowsNoCountryOutsideItsNetworks() throws IOException {
		try (MaxMindCountryLookup lookup = MaxMindCountryLookup.read(new ByteArrayInputStream(this.database))) {
			assertThat(lookup.countryOf(address("198.51.100.128"))).isNull();
			assertThat(lookup.countryOf(address("10.0.0.1"))).isNull();
			assertThat(lookup.countryOf(address("2001:db8:cd::1"))).isNull();
		}
	}

	@Test
	void refusesBytesThatAreNoDatabase() {
		assertThatIOException().isThrownBy(() -> MaxMindCountryLookup
			.read(new ByteArrayInputStream("1.2.3.0/24 CN\n".getBytes(StandardCharsets.UTF_8))));
	}

	private static AddressBits address(String text) {
		AddressBits bits = AddressBits.parse(text);
		assertThat(bits).isNotNull();
		return bits;
	}

}
