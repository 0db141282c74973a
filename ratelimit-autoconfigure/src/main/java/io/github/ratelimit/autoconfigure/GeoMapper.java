package io.github.ratelimit.autoconfigure;

import java.io.IOException;
import java.io.InputStream;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import org.springframework.core.io.Resource;

import io.github.ratelimit.geo.CountryLookup;
import io.github.ratelimit.geo.CountryRules;
import io.github.ratelimit.geo.maxmind.MaxMindCountryLookup;
import io.github.ratelimit.policy.InvalidRateLimitConfigurationException;

/**
 * Maps {@code ratelimit.geo} onto the country rules, checking every value: a missing or
 * broken database, a code that is no country, an allow-list beside a deny-list stop the
 * start with the property named.
 */
final class GeoMapper {

	static final String DATABASE = "ratelimit.geo.database";

	static final String DATABASE_EXAMPLE = "file:/var/lib/GeoIP/GeoLite2-Country.mmdb";

	private GeoMapper() {
	}

	/** Whether any country rule is configured. */
	static boolean configured(GeoProperties geo) {
		return geo.getDatabase() != null || !geo.getAllow().isEmpty() || !geo.getDeny().isEmpty();
	}

	static MaxMindCountryLookup maxMind(GeoProperties geo) {
		Resource database = geo.getDatabase();
		if (database == null) {
			throw new InvalidRateLimitConfigurationException(DATABASE, "", "no country database is set",
					DATABASE_EXAMPLE);
		}
		if (!database.exists()) {
			throw new InvalidRateLimitConfigurationException(DATABASE, describe(database),
					"no such file (a path needs the file: prefix)", DATABASE_EXAMPLE);
		}
		try (InputStream in = database.getInputStream()) {
			return MaxMindCountryLookup.read(in);
		}
		catch (IOException | RuntimeException ex) {
			throw new InvalidRateLimitConfigurationException(DATABASE, describe(database),
					"not a readable MaxMind database (.mmdb): " + ex.getMessage(), DATABASE_EXAMPLE);
		}
	}

	static CountryRules rules(GeoProperties geo, CountryLookup lookup) {
		if (!geo.getAllow().isEmpty() && !geo.getDeny().isEmpty()) {
			throw new InvalidRateLimitConfigurationException("ratelimit.geo.allow", geo.getAllow(),
					"set an allow-list or a deny-list, not both (an allow-list refuses every other country)",
					"[DE, FR, NL]");
		}
		return new CountryRules(lookup, codes("ratelimit.geo.allow", geo.getAllow()),
				codes("ratelimit.geo.deny", geo.getDeny()), geo.getUnknown());
	}

	/** Stops the start when rules are set but no database can answer them. */
	static void checkDatabase(GeoProperties geo, boolean lookupPresent, boolean readerPresent) {
		if (!configured(geo) || lookupPresent) {
			return;
		}
		if (geo.getDatabase() == null) {
			throw new InvalidRateLimitConfigurationException(DATABASE, "",
					"country rules (ratelimit.geo.allow or deny) need a country database", DATABASE_EXAMPLE);
		}
		if (!readerPresent) {
			throw new InvalidRateLimitConfigurationException(DATABASE, describe(geo.getDatabase()),
					"reading it needs MaxMind's reader: add the dependency com.maxmind.db:maxmind-db",
					DATABASE_EXAMPLE);
		}
	}

	// the value as written, where the resource can tell it
	private static String describe(Resource resource) {
		try {
			return resource.getURI().toString();
		}
		catch (IOException ex) {
			return resource.getDescription();
		}
	}

	private static Set<String> codes(String property, List<String> codes) {
		Set<String> checked = new LinkedHashSet<>();
		for (int i = 0; i < codes.size(); i++) {
			String code = codes.get(i).strip();
			if (!code.matches("[A-Za-z]{2}")) {
				throw new InvalidRateLimitConfigurationException(property + "[" + i + "]", code,
						"not an ISO 3166-1 alpha-2 country code", "CN");
			}
			checked.add(code);
		}
		return checked;
	}

}
