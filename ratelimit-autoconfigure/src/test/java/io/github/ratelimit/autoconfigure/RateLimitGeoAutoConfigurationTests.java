package io.github.ratelimit.autoconfigure;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;

import io.github.ratelimit.core.AddressGate;
import io.github.ratelimit.core.DenialReason;
import io.github.ratelimit.geo.CountryLookup;
import io.github.ratelimit.geo.CountryRules;
import io.github.ratelimit.geo.maxmind.MaxMindCountryLookup;
import io.github.ratelimit.identity.AddressBits;
import io.github.ratelimit.test.MmdbWriter;

import static io.github.ratelimit.autoconfigure.StartFailures.assertStartFailure;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Country rules' beans: present with a database and MaxMind's reader, absent without a
 * database, and start failures that name {@code ratelimit.geo.*}.
 */
class RateLimitGeoAutoConfigurationTests {

	private final WebApplicationContextRunner runner = new WebApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(RateLimitAutoConfiguration.class, RateLimitGeoAutoConfiguration.class))
		.withPropertyValues("ratelimit.tiers.anonymous.ip.default=10/1m");

	@TempDir
	Path dir;

	private String database() {
		return "file:" + new MmdbWriter().country("203.0.113.0/24", "CN")
			.country("198.51.100.0/24", "DE")
			.writeTo(this.dir.resolve("countries.mmdb"));
	}

	@Test
	void noCountryRulesWithoutADatabase() {
		this.runner.run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(context).doesNotHaveBean(CountryRules.class);
			assertThat(context.getBean(AddressGate.class).active()).isFalse();
		});
	}

	@Test
	void countryRulesOverTheDatabaseGuardTheGate() {
		this.runner.withPropertyValues("ratelimit.geo.database=" + database(), "ratelimit.geo.deny[0]=CN")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context).hasSingleBean(MaxMindCountryLookup.class);
				CountryRules rules = context.getBean(CountryRules.class);
				assertThat(rules.screen(AddressBits.parse("203.0.113.7"))).isEqualTo(DenialReason.GEO);
				assertThat(rules.screen(AddressBits.parse("198.51.100.7"))).isNull();
				assertThat(context.getBean(AddressGate.class).active()).isTrue();
			});
	}

	@Test
	void aCountryLookupOfTheUsersReplacesTheDatabase() {
		this.runner.withBean(CountryLookup.class, () -> (address) -> "CN")
			.withPropertyValues("ratelimit.geo.allow[0]=DE")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context).doesNotHaveBean(MaxMindCountryLookup.class);
				assertThat(context.getBean(CountryRules.class).screen(AddressBits.parse("192.0.2.1")))
					.isEqualTo(DenialReason.GEO);
			});
	}

	@Test
	void rulesWithoutADatabaseStopTheStart() {
		this.runner.withPropertyValues("ratelimit.geo.deny[0]=CN")
			.run((context) -> assertStartFailure(context, "ratelimit.geo.database", "",
					"file:/var/lib/GeoIP/GeoLite2-Country.mmdb"));
	}

	@Test
	void aMissingDatabaseStopsTheStart() {
		this.runner
			.withPropertyValues("ratelimit.geo.database=file:" + this.dir.resolve("missing.mmdb"),
					"ratelimit.geo.deny[0]=CN")
			.run((context) -> assertStartFailure(context, "ratelimit.geo.database", "missing.mmdb",
					"file:/var/lib/GeoIP/GeoLite2-Country.mmdb"));
	}

	@Test
	void aBrokenDatabaseStopsTheStart() throws Exception {
		Path broken = Files.writeString(this.dir.resolve("broken.mmdb"), "203.0.113.0/24 CN\n");
		this.runner.withPropertyValues("ratelimit.geo.database=file:" + broken, "ratelimit.geo.deny[0]=CN")
			.run((context) -> assertThat(assertStartFailure(context, "ratelimit.geo.database", "broken.mmdb",
					"file:/var/lib/GeoIP/GeoLite2-Country.mmdb")
				.getDescription()).contains("not a readable MaxMind database"));
	}

	@Test
	void withoutMaxMindsReaderADatabaseStopsTheStartNamingTheDependency() {
		this.runner.withClassLoader(new FilteredClassLoader("com.maxmind.db"))
			.withPropertyValues("ratelimit.geo.database=" + database(), "ratelimit.geo.deny[0]=CN")
			.run((context) -> assertThat(assertStartFailure(context, "ratelimit.geo.database", "countries.mmdb",
					"file:/var/lib/GeoIP/GeoLite2-Country.mmdb")
				.getDescription()).contains("com.maxmind.db:maxmind-db"));
	}

	@Test
	void aCodeThatIsNoCountryStopsTheStart() {
		this.runner.withPropertyValues("ratelimit.geo.database=" + database(), "ratelimit.geo.deny[0]=China")
			.run((context) -> assertStartFailure(context, "ratelimit.geo.deny[0]", "China", "CN"));
	}

	@Test
	void anAllowListBesideADenyListStopsTheStart() {
		this.runner
			.withPropertyValues("ratelimit.geo.database=" + database(), "ratelimit.geo.deny[0]=CN",
					"ratelimit.geo.allow[0]=DE")
			.run((context) -> assertStartFailure(context, "ratelimit.geo.allow", "DE", "[DE, FR, NL]"));
	}

}
