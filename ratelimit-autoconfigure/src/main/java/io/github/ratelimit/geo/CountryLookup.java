package io.github.ratelimit.geo;

import org.jspecify.annotations.Nullable;

import io.github.ratelimit.identity.AddressBits;

/** Tells the country of an address: a country database. */
@FunctionalInterface
public interface CountryLookup {

	/**
	 * The country of an address.
	 * @param address the address
	 * @return its ISO 3166-1 alpha-2 code in upper case ({@code "DE"}), or {@code null}
	 * when the database does not know it (private ranges, new allocations)
	 */
	@Nullable String countryOf(AddressBits address);

}
