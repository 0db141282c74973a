package io.github.ratelimit.geo.maxmind;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;

import com.maxmind.db.CHMCache;
import com.maxmind.db.Reader;
import org.jspecify.annotations.Nullable;

import io.github.ratelimit.geo.CountryLookup;
import io.github.ratelimit.identity.AddressBits;

/**
 * Countries from a database in MaxMind's format (GeoLite2-Country, GeoIP2-Country or
 * -City, and the compatible databases of other vendors): the record's
 * {@code country.iso_code}, else its {@code registered_country.iso_code}. The database is
 * read into memory once; lookups are cached.
 */
public final class MaxMindCountryLookup implements CountryLookup, Closeable {

	private final Reader reader;

	private MaxMindCountryLookup(Reader reader) {
		this.reader = reader;
	}

	/**
	 * Reads a database.
	 * @param database the database's bytes, closed by the caller
	 * @return the lookup
	 * @throws IOException when the bytes are not a MaxMind database
	 */
	public static MaxMindCountryLookup read(InputStream database) throws IOException {
		return new MaxMindCountryLookup(new Reader(database, new CHMCache()));
	}

	/** The database's type, as its metadata names it ({@code GeoLite2-Country}). */
	public String databaseType() {
		return this.reader.getMetadata().getDatabaseType();
	}

	@Override
	public @Nullable String countryOf(AddressBits address) {
		Map<?, ?> record;
		try {
			record = this.reader.get(address.toInetAddress(), Map.class);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		if (record == null) {
			return null;
		}
		String country = isoCode(record.get("country"));
		return (country != null) ? country : isoCode(record.get("registered_country"));
	}

	private static @Nullable String isoCode(@Nullable Object country) {
		if (country instanceof Map<?, ?> map && map.get("iso_code") instanceof String code) {
			return code;
		}
		return null;
	}

	@Override
	public void close() throws IOException {
		this.reader.close();
	}

}
