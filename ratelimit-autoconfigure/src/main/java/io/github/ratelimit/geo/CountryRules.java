package io.github.ratelimit.geo;

import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

import io.github.ratelimit.core.AddressScreen;
import io.github.ratelimit.core.DenialReason;
import io.github.ratelimit.identity.AddressBits;

/**
 * Allows or denies client addresses by country, at the gate before authentication. With
 * an allow-list, every other country is refused; with a deny-list, the countries listed
 * are; an address of no known country gets the {@link UnknownCountry} choice. A lookup
 * that fails lets the request through, as anything unexpected in the gate does.
 */
public final class CountryRules implements AddressScreen {

	private final CountryLookup lookup;

	private final Set<String> allow;

	private final Set<String> deny;

	private final UnknownCountry unknown;

	/**
	 * Creates the rules; at most one of {@code allow} and {@code deny} is not empty.
	 * @param lookup the country database
	 * @param allow the only countries let through, or empty
	 * @param deny the countries refused, or empty
	 * @param unknown what to do with an address of no known country
	 */
	public CountryRules(CountryLookup lookup, Set<String> allow, Set<String> deny, UnknownCountry unknown) {
		if (!allow.isEmpty() && !deny.isEmpty()) {
			throw new IllegalArgumentException("Country rules take an allow-list or a deny-list, not both");
		}
		this.lookup = lookup;
		this.allow = upperCase(allow);
		this.deny = upperCase(deny);
		this.unknown = unknown;
	}

	@Override
	public @Nullable DenialReason screen(AddressBits address) {
		String country;
		try {
			country = this.lookup.countryOf(address);
		}
		catch (RuntimeException ex) {
			return null;
		}
		return refuses(country) ? DenialReason.GEO : null;
	}

	/** Whether a country (or none, {@code null}) is refused. */
	public boolean refuses(@Nullable String country) {
		if (country == null) {
			return this.unknown == UnknownCountry.DENY;
		}
		String code = country.toUpperCase(Locale.ROOT);
		return this.allow.isEmpty() ? this.deny.contains(code) : !this.allow.contains(code);
	}

	private static Set<String> upperCase(Set<String> codes) {
		return codes.stream()
			.map((code) -> code.strip().toUpperCase(Locale.ROOT))
			.collect(Collectors.toUnmodifiableSet());
	}

}
